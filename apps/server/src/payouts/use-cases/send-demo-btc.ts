import type { SignedInUser } from '../../auth/sessions';
import type { SimulatedChain } from '../../chain/simulated-chain';
import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { assertAddressNotSanctioned } from '../../compliance/sanctions/sanctions-screening';
import { moveOrder } from '../../orders/order-state';
import { resolvePayoutDestination, type ResolveDeps } from '../../payout-addresses/payout-destination';
import { recordAdminAction } from '../../admin/admin-audit.repository';
import { lockOrder } from '../../admin/admin-orders.repository';
import { assertOrderAction } from '../../admin/order-action-rules';
import { recordPayoutStarted } from '../payout.repository';
import { claimPayout, movePayout } from '../payout-state';
import { createDemoChainPayoutSender } from '../../rails/onchain/demo-chain-payout-sender';
import type { PayoutSendResult } from '../../rails/rail-handler';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
} from '../../admin/run-order-action';

/**
 * Demo: pays a paid buy's bitcoin through the simulated chain, claim before send (docs/design.md).
 * 1. One transaction locks the order, checks it may be paid and records the payout intent (one per
 *    order), then commits: of two calls at once, one gets the intent and the other a 409.
 * 2. The coins are sent.
 * 3. A second transaction records the result (txid, vout) and completes the order.
 * A crash between 1 and 3 leaves the intent without a result: nothing sends again, staff check the chain.
 */
export async function sendDemoBtc(
  deps: OrderActionDeps & { chain: SimulatedChain; payoutDestinations: ResolveDeps },
  request: { staff: SignedInUser; orderId: string },
): Promise<OrderRow> {
  const actor = adminActor(request.staff);
  // An xpub buy gets its fresh address first (outside the lock: it reads the chain).
  await resolvePayoutDestination(deps.payoutDestinations, request.orderId).catch((error: unknown) => {
    // Not a buy: the checks below answer it.
    if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
  });
  const { order, payout } = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, request.orderId);
    if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
    const facts = await actionFactsIn(tx, deps, order);
    assertOrderAction('send-btc', order, facts);
    // The rules allow the send only to a due destination at a known address.
    const address = facts.destination?.due ? facts.destination.address : null;
    if (!address) throw new AppError('CONFLICT', 'This buy has no payout address yet.');
    // Screened again just before the payout: the list may have changed since the order was saved.
    await assertAddressNotSanctioned(tx, address, 'walletAddress');
    const payout = await claimPayout(
      tx,
      {
        orderId: order.id,
        kind: 'btc',
        rail: 'onchain',
        sender: 'demo-chain',
        address,
        amountSats: order.amountSats,
        createdBy: actor,
      },
      'submitted',
    );
    await recordPayoutStarted(tx, order, payout, actor);
    await recordAdminAction(tx, request.staff, {
      action: 'order.payout_btc_started',
      targetType: 'order',
      targetId: order.id,
      before: order,
      after: order,
      note: `sending ${order.amountSats} sats to ${order.walletAddress} through the demo chain`,
    });
    return { order, payout };
  });

  let sent: PayoutSendResult | undefined;
  try {
    sent = await createDemoChainPayoutSender(deps.chain).send({ db: deps.db }, payout, order);
  } catch {
    // Whether the coins left is unknown: the intent stays, so no retry can send them a second time.
  }
  if (sent?.outcome !== 'settled' || sent.txid === undefined) {
    throw new AppError(
      'UNAVAILABLE',
      `The payout may or may not have been sent. Do not send again: check the chain for a transaction ` +
        `to ${payout.address ?? 'the customer'}, then record its txid with "Record bitcoin payout".`,
    );
  }
  const output = { txid: sent.txid, vout: sent.vout ?? 0 };

  return runOrderAction(
    deps,
    {
      staff: request.staff,
      orderId: order.id,
      note: 'sent through the demo chain',
      action: 'order.payout_btc',
    },
    async (tx, current) => {
      await movePayout(tx, payout, 'settled', output);
      return moveOrder(tx, {
        orderId: current.id,
        from: ['processing'],
        to: 'completed',
        actor,
        reason: 'bitcoin sent to the customer',
        patch: { txn: output.txid },
        details: output,
      });
    },
  );
}
