import { SELL_METHOD_MESSAGES, type UpdateOrderRequest } from '@offzero/shared/api/orders';
import type { GlobalSettingsRow, OrderRow, PaymentMethod, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { railHandler } from '../../rails/rail-registry';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { moveOrder } from '../order-state';
import { duplicateReferenceFlag } from './duplicate-reference';
import { setTravelRulePaymentIdentifier } from '../travel-rule.repository';
import type { OrderDeps } from './order-deps';
import { findFundingAccount } from '../../bank/bank-credits.repository';
import { fundingDetails } from '../../bank/inbound-matching';

type ManualPaymentRequest = Extract<UpdateOrderRequest, { payment: unknown }>;

/**
 * The customer says they paid a pending buy by Zelle, ACH or wire: the order moves to processing with
 * a copy of the company's receiving details for that method (never the ones the client sent).
 */
export async function recordManualPayment(
  deps: Pick<OrderDeps, 'db' | 'notify' | 'now'>,
  user: UserRow,
  order: OrderRow,
  body: ManualPaymentRequest,
): Promise<{ order: OrderRow; message: string }> {
  const method = body.payment.method;
  if (method === 'paypal') throw new AppError('BAD_REQUEST', 'Pay with PayPal through the PayPal button.');
  if (order.type !== 'buy') throw new AppError('BAD_REQUEST', 'Only buy orders are paid by the customer.');
  if (order.status !== 'pending')
    throw new AppError('CONFLICT', `This order is ${order.status}; it has already been paid or closed.`);
  if (order.quoteExpiresAt <= deps.now())
    throw new AppError('GONE', 'This quote has expired. Get a new quote to continue.');
  const settings = await findGlobalSettings(deps.db);
  // ACH and wire go to the customer's own account number at our bank, when they have one (docs/design.md,
  // "Bank provider"); Zelle and customers without one keep the company's shared account.
  const shared = receivingDetailsFor(settings, method);
  const own =
    method === 'ach' || method === 'wire' ? await findFundingAccount(deps.db, { userId: user.id }) : null;
  const receivingDetails = own ? fundingDetails(own) : shared;
  const bankTxn = body.bankTxn?.trim() || null;
  const moved = await deps.db.transaction(async (tx) => {
    const flag = bankTxn ? await duplicateReferenceFlag(tx, order, bankTxn) : undefined;
    // The Travel Rule record (orders of $3,000 or more) names how the buy was paid.
    await setTravelRulePaymentIdentifier(tx, order.id, bankTxn ? `${method} ${bankTxn}` : method);
    return moveOrder(tx, {
      orderId: order.id,
      from: ['pending'],
      to: 'processing',
      actor: `user:${user.id}`,
      reason: `payment submitted by ${method}`,
      patch: {
        paymentMethod: method,
        receivingDetails,
        paymentSubmittedAt: deps.now(),
        ...(bankTxn ? { bankTxn } : {}),
        ...flag,
      },
    });
  });
  await deps.notify(moved);
  return { order: moved, message: 'Payment details recorded. Send the transfer and add its reference.' };
}

/** A copy of the company's receiving details for the chosen method, kept with the order (its rail's). */
export function receivingDetailsFor(
  settings: GlobalSettingsRow,
  method: Exclude<PaymentMethod, 'paypal'>,
): Record<string, string> {
  const rail = railHandler(method);
  if (!rail.receivingDetails) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.invalidMethod);
  return rail.receivingDetails(settings);
}
