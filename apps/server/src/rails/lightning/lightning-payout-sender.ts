import { eq } from 'drizzle-orm';
import { decodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import { lightningPayouts } from '../../db/schema';
import type { PayoutSender, PayoutSendResult } from '../rail-handler';
import type { OutgoingPayment } from './lightning-node';

/** What the node's answer means for the payout; null while the node has no outcome yet. */
export function lightningOutcome(payment: OutgoingPayment, paymentHash: string): PayoutSendResult | null {
  if (payment.status === 'pending') return null;
  if (payment.status === 'failed') return { outcome: 'failed', reason: payment.reason };
  return {
    outcome: 'settled',
    reference: paymentHash,
    proof: { preimage: payment.preimage, feeSats: BigInt(payment.feeSats) },
  };
}

/**
 * Pays a buy's Lightning payout from the operator's node (docs/design.md, "Lightning", "Payouts"): the
 * invoice was checked and kept beside the payout when it was claimed, so this only asks the node to pay
 * exactly that invoice. A node that does not answer leaves the payout `submitted` (the reconcile job
 * then asks the node by payment hash); it is never sent again for the same payout.
 */
export const lightningPayoutSender: PayoutSender = {
  mode: 'automatic',
  async send(deps, payout, order) {
    if (!deps.lightning) throw new Error('the lightning sender needs the node');
    const [details] = await deps.db
      .select()
      .from(lightningPayouts)
      .where(eq(lightningPayouts.payoutId, payout.id));
    if (!details) throw new Error(`lightning payout ${payout.id} has no invoice`);
    // An invoice without an amount is paid the payout's satoshis; one with an amount names it itself.
    const named = decodeBolt11(details.invoice).amountMsat !== null;
    const amountSats = Number(payout.amountSats ?? order.amountSats);
    let payment: OutgoingPayment;
    try {
      payment = await deps.lightning.payInvoice({
        invoice: details.invoice,
        ...(named ? {} : { amountSats }),
      });
    } catch {
      payment = { status: 'pending', paymentId: null, paymentHash: details.paymentHash };
    }
    return (
      lightningOutcome(payment, details.paymentHash) ?? {
        outcome: 'submitted',
        reference: details.paymentHash,
      }
    );
  },
};
