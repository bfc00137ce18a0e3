import type { SimulatedChain } from '../../chain/simulated-chain';
import type { Database } from '../../db/database';
import type { OrderRow } from '../../db/schema';
import { lightningPayoutOfOrder } from '../../rails/lightning/lightning-payout.presenter';
import { AppError } from '../../http/errors';
import { payoutAddressStatus } from '../../payout-addresses/payout-address.presenter';
import {
  checkPayoutDestination,
  resolvePayoutDestination,
  type ResolveDeps,
} from '../../payout-addresses/payout-destination';
import type { BankProvider } from '../../bank/bank-provider';
import { findBatchHoldingOrder } from '../../payouts/batches/payout-batch.repository';
import { listOrderPayouts } from '../../payouts/payout-bank-status';
import {
  findOrder,
  findOrderCustomer,
  findOrderDeposits,
  findOrderTimeline,
} from '../admin-orders.repository';
import { offeredOrderActions, readOrderActionFacts } from '../order-action-rules';

/**
 * Where an unsettled buy's bitcoin goes: for a paid buy (due for payout) the destination is resolved,
 * so an xpub entry's fresh address is derived and recorded once and staff see the address to pay.
 */
async function payoutDestinationOf(deps: { db: Database; payoutDestinations: ResolveDeps }, order: OrderRow) {
  if (
    order.type !== 'buy' ||
    order.status === 'completed' ||
    order.status === 'cancelled' ||
    order.status === 'expired'
  ) {
    return null;
  }
  const now = new Date();
  const paid = order.status === 'processing' && order.paymentConfirmedAt !== null;
  const destination = paid
    ? await resolveForStaff(deps.payoutDestinations, order.id)
    : await checkPayoutDestination(deps.db, order, now);
  const { entry } = destination;
  return {
    due: destination.due,
    address: destination.due ? destination.address : (entry?.address ?? order.walletAddress),
    message: destination.due ? null : destination.message,
    entry: entry
      ? {
          label: entry.label,
          kind: entry.xpub ? ('xpub' as const) : ('address' as const),
          status: payoutAddressStatus(entry, now),
          usableAt: entry.usableAt?.toISOString() ?? null,
          proven: entry.provenAt !== null,
          removed: entry.removedAt !== null,
        }
      : null,
  };
}

/**
 * The order page must open whatever the destination: a derived xpub address that is listed, or an xpub
 * whose next addresses all have history, is shown to staff as the reason the buy is not due.
 */
async function resolveForStaff(deps: ResolveDeps, orderId: string) {
  try {
    return await resolvePayoutDestination(deps, orderId);
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'NOT_FOUND') throw error;
    return { due: false as const, message: error.message, entry: null };
  }
}

/**
 * One order with its customer, its state changes, the deposits seen for it, its payout destination, and
 * the actions its state allows (or blocks, with the reason), judged by the rules the actions enforce.
 */
export async function getOrderDetail(
  deps: {
    db: Database;
    confirmationsRequired: number;
    payoutDestinations: ResolveDeps;
    simulatedChain: SimulatedChain | null;
    bank?: Pick<BankProvider, 'getTransfer'> | null;
  },
  orderId: string,
) {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  const [customer, timeline, deposits, payoutBatch, payouts] = await Promise.all([
    findOrderCustomer(deps.db, order.userId),
    findOrderTimeline(deps.db, order.id),
    findOrderDeposits(deps.db, order.id),
    order.type === 'buy' ? findBatchHoldingOrder(deps.db, order.id) : undefined,
    listOrderPayouts({ db: deps.db, bank: deps.bank ?? null }, order.id),
  ]);
  const payoutDestination = await payoutDestinationOf(deps, order);
  // The xpub address may just have been recorded: show the order as it now is.
  const current =
    payoutDestination?.address && !order.walletAddress
      ? ((await findOrder(deps.db, orderId)) ?? order)
      : order;
  const facts = await readOrderActionFacts(deps.db, current, {
    confirmationsRequired: deps.confirmationsRequired,
    demoChain: deps.simulatedChain !== null,
  });
  return {
    order: current,
    actions: offeredOrderActions(current, facts),
    customer,
    timeline,
    deposits,
    confirmationsRequired: deps.confirmationsRequired,
    payoutDestination,
    payoutBatch: payoutBatch ?? null,
    payouts,
    /** A Lightning buy's payout with its proof, and whether staff may retry it or send it on chain. */
    lightningPayout: await lightningPayoutOfOrder(deps.db, current),
  };
}
