import type { SignedInUser } from '../../../auth/sessions';
import type { FeeTier } from '../../../chain/chain-api';
import { recordAdminAction } from '../../../admin/admin-audit.repository';
import { adminActor } from '../payout-batch-deps';
import { AppError } from '../../../http/errors';
import { findReplacement, insertBatch, lockBatch, type BatchWithOrders } from '../payout-batch.repository';
import { MIN_CHANGE_SATS, requireWallet, type PayoutBatchDeps } from '../payout-batch-deps';
import { buildPayoutPsbt, estimateVsize, scriptOfAddress } from '../payout-psbt';
import { planOf } from './batch-plan';
import { feeFor } from './build-payout-batch';
import { feeRateToKvb, feeWithinCap } from './fee-rules';

/**
 * A broadcast batch that does not confirm is re-sent with a higher fee (replace-by-fee, BIP 125): a new
 * version of the batch spending the SAME coins and paying the SAME customers the same amounts, the
 * higher fee taken from the change. It waits for the operator's signature like the first version; once
 * broadcast it replaces the first on the network.
 */
export async function bumpPayoutBatchFee(
  deps: PayoutBatchDeps,
  request: { staff: SignedInUser; batchId: string; feeTier: FeeTier },
): Promise<BatchWithOrders> {
  const wallet = requireWallet(deps);
  const estimate = feeRateToKvb(await deps.chain.feeRateFor(request.feeTier));

  return deps.db.transaction(async (tx) => {
    const current = await lockBatch(tx, request.batchId);
    if (!current) throw new AppError('NOT_FOUND', 'Payout batch not found.');
    if (current.batch.status !== 'broadcast') {
      throw new AppError(
        'CONFLICT',
        `Only a broadcast batch waiting for its first confirmation can be fee-bumped; this one is ${current.batch.status.replace('_', ' ')}.`,
      );
    }
    const existing = await findReplacement(tx, current.batch.id);
    if (existing) {
      throw new AppError(
        'CONFLICT',
        `This batch already has a fee-bumped version (${existing.id}): sign and upload that one, or bump it instead.`,
      );
    }
    const plan = planOf(wallet, current);
    const scripts = [
      ...plan.payouts.map((payout) => scriptOfAddress(wallet, payout.address)!),
      ...(plan.change ? [wallet.derive(1, plan.change.index).script] : []),
    ];
    const vsize = estimateVsize(plan.inputs.length, scripts);
    // BIP 125: the replacement pays more in total AND at least 1 sat/vB more for its own size.
    const rate = Math.max(
      estimate,
      current.batch.feeRateSatPerKvb + 1000,
      Math.ceil(current.batch.feeRateSatPerKvb * 1.25),
    );
    const feeSats =
      feeFor(rate, vsize) > current.batch.feeSats + BigInt(vsize)
        ? feeFor(rate, vsize)
        : current.batch.feeSats + BigInt(vsize);
    const extra = feeSats - current.batch.feeSats;
    if (!plan.change || plan.change.amountSats - extra < MIN_CHANGE_SATS) {
      throw new AppError(
        'CONFLICT',
        'This batch has too little change to pay a higher fee. Wait for it to confirm, or ask the network (CPFP) from your wallet.',
      );
    }
    feeWithinCap(feeSats, current.batch.payoutSats, deps.feeCapPercent);
    const change = { ...plan.change, amountSats: plan.change.amountSats - extra };
    const psbt = buildPayoutPsbt(wallet, { ...plan, change });
    const bumped = await insertBatch(
      tx,
      {
        status: 'awaiting_signature',
        feeTier: request.feeTier,
        feeRateSatPerKvb: rate,
        feeSats,
        payoutSats: current.batch.payoutSats,
        inputs: current.batch.inputs,
        changeAddress: change.address,
        changeIndex: change.index,
        changeSats: change.amountSats,
        unsignedPsbt: psbt,
        replacesBatchId: current.batch.id,
        createdBy: adminActor(request.staff),
      },
      current.orders.map((row) => ({
        orderId: row.orderId,
        address: row.address,
        amountSats: row.amountSats,
      })),
      false,
    );
    await recordAdminAction(tx, request.staff, {
      action: 'payout_batch.bump_fee',
      targetType: 'payout_batch',
      targetId: bumped.batch.id,
      before: { batchId: current.batch.id, feeSats: current.batch.feeSats.toString() },
      after: { batchId: bumped.batch.id, feeSats: feeSats.toString() },
    });
    return bumped;
  });
}
