import { formatBtc } from '@offzero/shared/money/money';
import type { SignedInUser } from '../../../auth/sessions';
import type { FeeTier } from '../../../chain/chain-api';
import { AppError } from '../../../http/errors';
import { recordAdminAction } from '../../../admin/admin-audit.repository';
import { adminActor } from '../payout-batch-deps';
import {
  findDueBuyOrders,
  findHighestChangeIndex,
  findReservedOutpoints,
  insertBatch,
  lockBatchBuilding,
  lockOrders,
  type BatchWithOrders,
} from '../payout-batch.repository';
import { MIN_CHANGE_SATS, requireWallet, type PayoutBatchDeps } from '../payout-batch-deps';
import { deriveXpubDestinations } from '../../../payout-addresses/payout-destination';
import { buildPayoutPsbt, estimateVsize, scriptOfAddress, type PsbtInput } from '../payout-psbt';
import { readWalletCoins } from '../wallet-coins';
import { batchDestination } from './batch-destination';
import { feeRateToKvb, feeWithinCap } from './fee-rules';

/**
 * Builds one unsigned PSBT paying every due buy (docs/design.md) from the payout wallet:
 * 1. outside any database transaction, the tier's fee rate and the wallet's confirmed coins are read
 *    from the chain;
 * 2. one transaction, serialized with every other builder, takes the due buys (locked; flags, payment
 *    and the payout address re-checked; each address screened), leaves out coins another unsigned batch
 *    holds, picks coins largest first, adds change to the next change address m/1/i, checks the fee cap,
 *    and records the batch with a claim per order (one batch per order, by a unique key).
 */
export async function buildPayoutBatch(
  deps: PayoutBatchDeps,
  request: { staff: SignedInUser; feeTier: FeeTier },
): Promise<{ batch: BatchWithOrders; skipped: { orderId: string; reason: string }[] }> {
  const wallet = requireWallet(deps);
  const feeRate = await deps.chain.feeRateFor(request.feeTier);
  const feeRateKvb = feeRateToKvb(feeRate);
  const highestBefore = await findHighestChangeIndex(deps.db);
  const { coins, fundingAddress } = await readWalletCoins(deps.chain, wallet, highestBefore + 1);

  // xpub buys get their fresh address first: deriving reads the chain, which no lock should wait on.
  await deriveXpubDestinations(deps, await findDueBuyOrders(deps.db));

  const result = await deps.db.transaction(async (tx) => {
    await lockBatchBuilding(tx);
    const due = await findDueBuyOrders(tx);
    const locked = await lockOrders(
      tx,
      due.map((order) => order.id),
    );
    const skipped: { orderId: string; reason: string }[] = [];
    const payouts: { orderId: string; address: string; amountSats: bigint }[] = [];
    for (const order of locked) {
      // Re-checked under the lock: a flag or a cancellation since the search wins.
      if (order.status !== 'processing' || !order.paymentConfirmedAt || order.flag) continue;
      const destination = await batchDestination(deps, tx, order, new Date());
      if (!destination.payable) {
        skipped.push({ orderId: order.id, reason: destination.reason });
        continue;
      }
      payouts.push({ orderId: order.id, address: destination.address, amountSats: order.amountSats });
    }
    if (payouts.length === 0) {
      const why =
        skipped.length > 0 ? ` ${skipped.length} paid buy(s) wait for a usable payout address.` : '';
      throw new AppError(
        'BAD_REQUEST',
        `No buys are due for payout: a buy is due once its payment is marked received, it is not flagged, and it is not in another batch.${why}`,
      );
    }

    const reserved = await findReservedOutpoints(tx);
    const available = coins
      .filter((coin) => !reserved.has(`${coin.txid}:${coin.vout}`))
      .sort((a, b) => (a.valueSats === b.valueSats ? 0 : a.valueSats > b.valueSats ? -1 : 1));
    const changeIndex = (await findHighestChangeIndex(tx)) + 1;
    const change = wallet.derive(1, changeIndex);
    const payoutSats = payouts.reduce((sum, payout) => sum + payout.amountSats, 0n);
    const payoutScripts = payouts.map((payout) => {
      const script = scriptOfAddress(wallet, payout.address);
      if (!script) throw new Error(`unpayable address passed the destination check: ${payout.address}`);
      return script;
    });

    const { inputs, plan } = pickCoins(available, payoutSats, payoutScripts, change.script, feeRateKvb);
    if (!plan) {
      const held = available.reduce((sum, coin) => sum + coin.valueSats, 0n);
      throw new AppError(
        'BAD_REQUEST',
        `The payout wallet holds ${formatBtc(held, 8)} BTC in confirmed coins, not enough for ${formatBtc(payoutSats, 8)} BTC ` +
          `of payouts plus the network fee. Fund it (send bitcoin to ${fundingAddress}), wait for a confirmation, then build again.`,
      );
    }
    feeWithinCap(plan.feeSats, payoutSats, deps.feeCapPercent);

    const changeOutput =
      plan.changeSats > 0n
        ? { address: change.address, amountSats: plan.changeSats, index: changeIndex }
        : null;
    const psbt = buildPayoutPsbt(wallet, { inputs, payouts, change: changeOutput });
    const batch = await insertBatch(
      tx,
      {
        status: 'awaiting_signature',
        feeTier: request.feeTier,
        feeRateSatPerKvb: feeRateKvb,
        feeSats: plan.feeSats,
        payoutSats,
        inputs: inputs.map((input) => ({ ...input, valueSats: input.valueSats.toString() })),
        changeAddress: changeOutput?.address ?? null,
        changeIndex: changeOutput ? changeIndex : null,
        changeSats: plan.changeSats,
        unsignedPsbt: psbt,
        createdBy: adminActor(request.staff),
      },
      payouts,
      true,
    );
    await recordAdminAction(tx, request.staff, {
      action: 'payout_batch.build',
      targetType: 'payout_batch',
      targetId: batch.batch.id,
      after: {
        orderIds: payouts.map((payout) => payout.orderId),
        feeSats: plan.feeSats.toString(),
        feeTier: request.feeTier,
      },
      note:
        skipped.length > 0
          ? `left out: ${skipped.map((s) => `${s.orderId} (${s.reason})`).join('; ')}`
          : null,
    });
    return { batch, skipped };
  });
  return result;
}

/** The fee at a rate in sat/kvB for a size in vB, rounded up to whole satoshis. */
export function feeFor(rateSatPerKvb: number, vsize: number): bigint {
  return (BigInt(rateSatPerKvb) * BigInt(vsize) + 999n) / 1000n;
}

/**
 * Coins largest first until they pay the outputs and the fee, with change when the rest is worth a
 * change output (else the rest goes to the fee); `plan` is null when the coins are not enough.
 */
function pickCoins(
  available: PsbtInput[],
  payoutSats: bigint,
  payoutScripts: Uint8Array[],
  changeScript: Uint8Array,
  feeRateKvb: number,
): { inputs: PsbtInput[]; plan: { feeSats: bigint; changeSats: bigint } | null } {
  const inputs: PsbtInput[] = [];
  let inputSats = 0n;
  let plan: { feeSats: bigint; changeSats: bigint } | null = null;
  for (const coin of available) {
    inputs.push(coin);
    inputSats += coin.valueSats;
    const feeWithChange = feeFor(feeRateKvb, estimateVsize(inputs.length, [...payoutScripts, changeScript]));
    if (inputSats >= payoutSats + feeWithChange + MIN_CHANGE_SATS) {
      plan = { feeSats: feeWithChange, changeSats: inputSats - payoutSats - feeWithChange };
      break;
    }
    const feeWithoutChange = feeFor(feeRateKvb, estimateVsize(inputs.length, payoutScripts));
    if (inputSats >= payoutSats + feeWithoutChange) {
      // The rest is too small for a change output: it goes to the fee.
      plan = { feeSats: inputSats - payoutSats, changeSats: 0n };
      break;
    }
  }
  return { inputs, plan };
}
