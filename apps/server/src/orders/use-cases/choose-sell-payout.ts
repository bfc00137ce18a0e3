import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { Cents } from '@offzero/shared/money/money';
import type { Database } from '../../db/database';
import type { SellPayoutRail } from '@offzero/shared/rails/rails';
import type { GlobalSettingsRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { activeSellPayoutRail } from '../../rails/rail-registry';
import type { SellPayoutCheck } from '../../rails/rail-handler';
import { findCustomerSettings } from '../customer.repository';

export interface SellPayout {
  method: SellPayoutRail;
  /** What the method costs; it comes off what the customer is paid. */
  bankChargesCents: Cents;
  /** A copy of the customer's own details to pay into, kept with the order. */
  details: Record<string, string>;
}

/**
 * the product specification's payout-method checks, in order, and the customer's details to pay into:
 * the customer's settings exist, the method is a switched-on sell-payout rail, and the details that
 * rail needs are filled in (each rail says which, and what the customer reads when one is missing), and
 * the rail reaches them (an instant payout needs a bank on RTP or FedNow).
 */
export async function chooseSellPayout(
  deps: { db: Database; bank: SellPayoutCheck['bank'] },
  user: UserRow,
  settings: GlobalSettingsRow,
  method: string | undefined,
  valueCents?: Cents,
): Promise<SellPayout> {
  const own = await findCustomerSettings(deps.db, user.id);
  if (!own) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.noSettings);
  const rail = activeSellPayoutRail(settings, method);
  if (!rail?.sellPayout) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.invalidMethod);
  const details = rail.sellPayout.details(own);
  if (!details) throw new AppError('BAD_REQUEST', rail.sellPayout.missingDetailsMessage);
  const refusal = await rail.sellPayout.refusal?.({ bank: deps.bank, settings, details, valueCents });
  if (refusal) throw new AppError('BAD_REQUEST', refusal);
  return {
    method: rail.id,
    bankChargesCents: rail.chargesCents(settings, 'sell'),
    details,
  };
}
