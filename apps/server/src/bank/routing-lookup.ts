import { ROUTING_NUMBER_MESSAGES, type RoutingNumberResponse } from '@offzero/shared/api/bank';
import { AppError } from '../http/errors';
import { BankError, type BankProvider } from './bank-provider';
import { isValidRoutingNumber } from './routing-number';

/**
 * A routing number as the bank knows it (docs/design.md, "Bank provider"): 400 when it fails the ABA
 * checksum (never asked of the bank), 404 when the bank does not know it, 503 when the bank cannot say.
 */
export async function lookUpRoutingNumber(
  bank: BankProvider,
  routingNumber: string,
): Promise<RoutingNumberResponse> {
  if (!isValidRoutingNumber(routingNumber))
    throw new AppError('BAD_REQUEST', ROUTING_NUMBER_MESSAGES.invalid);
  let info;
  try {
    info = await bank.lookUpRoutingNumber(routingNumber);
  } catch (error) {
    if (error instanceof BankError)
      throw new AppError(
        'UNAVAILABLE',
        'We cannot check this routing number right now. Try again in a moment.',
      );
    throw error;
  }
  if (!info) throw new AppError('NOT_FOUND', ROUTING_NUMBER_MESSAGES.unknown);
  return info;
}
