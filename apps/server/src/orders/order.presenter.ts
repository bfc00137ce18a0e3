import type { Order } from '@offzero/shared/api/orders';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import type { OrderRow } from '../db/schema';

/** An order as the client contract lists it ("Order as listed", the product specification). */
export function toOrderResponse(
  order: OrderRow,
  payoutHold?: string,
  lightningPayout?: OrderLightningPayout,
): Order {
  const details = order.receivingDetails ?? {};
  return {
    _id: order.id,
    userId: order.userId,
    pair: order.pair,
    type: order.type,
    amount: satsToBtcNumber(order.amountSats),
    price: centsToUsdNumber(order.priceCents),
    value: centsToUsdNumber(order.valueCents),
    platformFee: centsToUsdNumber(order.platformFeeCents),
    networkFee: centsToUsdNumber(order.networkFeeCents),
    bankFee: centsToUsdNumber(order.bankFeeCents),
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    expiresAt: order.quoteExpiresAt.toISOString(),
    txn: order.txn,
    bankTxn: order.bankTxn,
    walletAddress:
      order.type === 'sell'
        ? order.walletAddress
          ? { address: order.walletAddress, amount: satsToBtcNumber(order.amountSats) }
          : null
        : order.walletAddress,
    confirmations: order.confirmations,
    flag: order.flag,
    ...(payoutHold ? { payoutHold } : {}),
    ...(order.origin ? { origin: order.origin } : {}),
    // The customer's own reason, or the one staff gave (also a declined PayPal payment, a returned deposit).
    ...(order.status === 'cancelled' && order.cancelReason ? { cancelReason: order.cancelReason } : {}),
    // The scam shield's cooling-off (docs/design.md, "Places and the scam shield"): the buy may still be
    // cancelled as a scam until its payout starts (the server checks that when asked).
    ...(order.coolingUntil &&
    order.type === 'buy' &&
    (order.status === 'pending' || order.status === 'processing')
      ? { coolingUntil: order.coolingUntil.toISOString(), scamCancel: true }
      : {}),
    ...(order.lightningInvoice && order.lightningPaymentHash && order.lightningExpiresAt
      ? {
          lightning: {
            invoice: order.lightningInvoice,
            paymentHash: order.lightningPaymentHash,
            expiresAt: order.lightningExpiresAt.toISOString(),
          },
        }
      : {}),
    // A buy paid out by Lightning: its payout and, once settled, the preimage (docs/design.md, "Lightning").
    ...(lightningPayout ? { lightningPayout } : {}),
    payment: order.paymentMethod
      ? {
          method: order.paymentMethod,
          status: paymentStatus(order),
          amount: centsToUsdNumber(order.valueCents),
          create_time: order.paymentSubmittedAt?.toISOString() ?? null,
          receiving_in: {
            account_holder: details.account_holder,
            account_number: details.account_number,
            bank_address: details.bank_address,
            routing_number: details.routing_number,
            swift: details.swift,
            payment_address: details.payment_address,
            bank_name: details.bank_name,
          },
          ...(order.paymentMethod === 'paypal' ? { captureId: order.paypalCaptureId } : {}),
        }
      : null,
  };
}

function paymentStatus(order: OrderRow): string {
  if (order.paymentMethod === 'paypal') {
    if (!order.paypalCaptureId) return 'CREATED';
    if (order.flag === 'payment_reversed') return 'REVERSED';
    // PayPal holds the capture: the order waits for its completion.
    return order.status === 'pending' ? 'PENDING' : 'COMPLETED';
  }
  if (order.status === 'completed') return 'COMPLETED';
  return order.bankTxn ? 'SUBMITTED' : 'AWAITING_TRANSFER';
}
