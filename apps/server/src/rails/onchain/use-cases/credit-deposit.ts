import { formatBtc, satsToBtcNumber } from '@offzero/shared/money/money';
import type { ChainOutput } from '../../../chain/chain-api';
import { findSanctionedAddresses } from '../../../compliance/sanctions/sanctions-screening';
import type { Transaction } from '../../../db/database';
import type { OrderRow } from '../../../db/schema';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { flagOrder, lockOrder } from '../../../orders/order.repository';
import { writeOutbox } from '../../../outbox/outbox.repository';
import { restrictCustomer } from '../../../users/customer-restriction.repository';
import { insertDepositOnce, reviveVanishedDeposit } from '../deposit.repository';
import { nextFlag } from './deposit-flags';
import { priceOnSum } from './price-on-sum';
import type { WatcherDeps } from './watcher-deps';

/**
 * Credits one output if no watcher has before (docs/design.md: once per `txid:vout`, the unique row
 * inserted in the same transaction as the credit); returns the order as it now is, or null.
 */
export async function creditDeposit(
  deps: WatcherDeps,
  orderId: string,
  output: ChainOutput,
  confirmations: number,
): Promise<OrderRow | null> {
  // Screened before the crediting transaction (a read); applied inside it, with the credit.
  const listed = await findSanctionedAddresses(deps.db, output.inputAddresses);
  return deps.db.transaction(async (tx) => {
    const credited = await creditIn(deps, tx, orderId, output, confirmations);
    if (!credited.inserted || listed.length === 0) return credited.order;
    const current = credited.order ?? (await lockOrder(tx, orderId));
    return current ? holdForSanctions(deps, tx, current, output, listed) : null;
  });
}

/** In the crediting transaction: the spec's `new-transaction` notice, before the status notice. */
async function recordNewTransaction(
  tx: Transaction,
  order: OrderRow,
  output: ChainOutput,
  creditKey: string,
): Promise<void> {
  await writeOutbox(tx, [
    {
      eventKey: `deposit-credit:${creditKey}`,
      channel: 'realtime',
      recipient: order.userId,
      userId: order.userId,
      payload: {
        type: 'new-transaction',
        payload: { amount: satsToBtcNumber(output.valueSats), _id: order.id, txn: output.txid },
      },
    },
  ]);
}

/**
 * A deposit spent from a sanctioned address (docs/design.md): the order is flagged `sanctions_hit`,
 * whatever flag it had (kept in the note), so it is held and never paid out, and the customer is
 * restricted. Nothing tells the customer why: no message goes out, only the order's realtime update.
 */
async function holdForSanctions(
  deps: WatcherDeps,
  tx: Transaction,
  order: OrderRow,
  output: ChainOutput,
  listed: string[],
): Promise<OrderRow | null> {
  const what = `deposit ${output.txid}:${output.vout} spends from sanctioned address${listed.length > 1 ? 'es' : ''} ${listed.join(', ')}`;
  const flagged = await flagOrder(
    tx,
    order.id,
    {
      flag: 'sanctions_hit',
      flagNote:
        order.flag && order.flag !== 'sanctions_hit'
          ? `${what}; earlier ${order.flag}: ${order.flagNote ?? ''}`
          : order.flag === 'sanctions_hit'
            ? `${order.flagNote ?? ''}; then ${what}`
            : what,
    },
    deps.now(),
    'system:sanctions-screening',
  );
  await restrictCustomer(
    tx,
    order.userId,
    `sanctions hit: the deposit of sell order #${order.id.slice(0, 8)} came from a sanctioned address`,
  );
  if (!flagged) return null;
  await recordOrderNotices(tx, flagged, {
    eventKey: `deposit-sanctions:${order.id}:${output.txid}:${output.vout}`,
    messages: false,
  });
  return flagged;
}

/**
 * The crediting itself, in the caller's transaction: `inserted` says whether this output is new, and
 * `order` is the order as it now is (null when nothing changed).
 */
async function creditIn(
  deps: WatcherDeps,
  tx: Transaction,
  orderId: string,
  output: ChainOutput,
  confirmations: number,
): Promise<{ inserted: boolean; order: OrderRow | null }> {
  const inserted = await insertDepositOnce(tx, orderId, output, confirmations);
  const result = (row: OrderRow | null | undefined) => ({
    inserted: Boolean(inserted),
    order: row ?? null,
  });
  // Seen before: nothing to do, unless it had vanished and is back (rebroadcast).
  const revived = inserted ? null : await reviveVanishedDeposit(tx, output, confirmations, deps.now());
  if (!inserted && !revived) return result(null);

  const current = await lockOrder(tx, orderId);
  if (!current) return result(null);
  const creditKey = `${current.id}:${output.txid}:${output.vout}:${inserted ? 'seen' : `revived-${deps.now().getTime()}`}`;
  await recordNewTransaction(tx, current, output, creditKey);
  // A sell its Lightning invoice paid first is credited already (docs/design.md, "Lightning"): these
  // coins are extra, flagged below for staff to return, never priced into the order.
  const open = current.status === 'pending' || current.status === 'expired' || current.status === 'processing';
  if (open && !current.lightningPaidAt) {
    // Not paid out yet: split deposits are priced on their sum.
    const priced = await priceOnSum(
      deps,
      tx,
      current,
      { txid: output.txid, confirmations },
      {
        eventKey: `deposit-flag:${creditKey}`,
        reason:
          current.status === 'processing'
            ? 'another deposit arrived; priced on the sum'
            : 'deposit seen on chain',
        details: { txid: output.txid, vout: output.vout, valueSats: output.valueSats.toString() },
      },
    );
    return result(priced);
  }
  // A payment to an address whose order is already paid out or closed: keep it, flag it.
  const flagged = await flagOrder(
    tx,
    current.id,
    nextFlag(current, {
      flag: 'extra_deposit',
      note: `another ${formatBtc(output.valueSats)} BTC arrived in ${output.txid}:${output.vout}`,
    }),
    deps.now(),
    'system:deposit-watcher',
  );
  if (!flagged) return result(null);
  await recordOrderNotices(tx, flagged, { eventKey: `deposit-flag:${creditKey}`, messages: true });
  return result(flagged);
}
