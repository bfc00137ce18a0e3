import type { FastifyBaseLogger } from 'fastify';
import { formatBtc, satsToBtcNumber } from '@offzero/shared/money/money';
import { quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import { confirmationsOf, type ChainApi, type ChainOutput } from '../chain/chain-api';
import type { Database, Transaction } from '../db/database';
import type { DepositRow, OrderRow } from '../db/schema';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { moveOrder } from '../orders/order-state';
import { recordOrderNotices, type OrderNotifier } from '../orders/order-notifications';
import {
  findOrder,
  flagOrder,
  lockOrder,
  updateDepositConfirmationsOfOrder,
} from '../orders/order.repository';
import { writeOutbox } from '../outbox/outbox.repository';
import type { PriceBook } from '../prices/price-book';
import {
  findSeenDeposits,
  findWatchedSellOrders,
  insertDepositOnce,
  markDepositVanished,
  reviveVanishedDeposit,
  updateDepositConfirmations,
} from './deposit.repository';

/** Expired and cancelled sells are still watched this long, so a late deposit is never lost. */
export const LATE_DEPOSIT_WATCH_MS = 24 * 3600_000;

/**
 * Watches every open sell order's deposit address (DESIGN.md section 3): credits each output exactly
 * once by `txid:vout` (the unique row is inserted in the same transaction as the credit, so two
 * watchers cannot both credit), announces it, counts confirmations, re-prices and flags under-, over-
 * and late payments, and takes an order back to waiting when its transaction disappears. Every notice
 * (realtime `new-transaction` and `order-updated`, e-mail, SMS) is written into the outbox in the
 * transaction of its change and delivered once that is committed.
 */
export function createDepositWatcher(deps: {
  db: Database;
  chain: ChainApi;
  prices: PriceBook;
  /** Delivers, once committed, what a change wrote into the outbox for the order's customer. */
  notify: OrderNotifier;
  confirmationsRequired: number;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Told of each deposit credited (the `offzero_deposits_credited_total` metric). */
  onCredited?: () => void;
}) {
  const { db, chain, notify } = deps;
  const now = deps.now ?? (() => new Date());

  async function watchedOrders(): Promise<OrderRow[]> {
    return findWatchedSellOrders(db, new Date(now().getTime() - LATE_DEPOSIT_WATCH_MS));
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

  /** Credits one output if no watcher has before; returns the order as it now is, or null. */
  async function credit(
    order: OrderRow,
    output: ChainOutput,
    confirmations: number,
  ): Promise<OrderRow | null> {
    return db.transaction(async (tx) => {
      const inserted = await insertDepositOnce(tx, order.id, output, confirmations);
      // Seen before: nothing to do, unless it had vanished and is back (rebroadcast).
      const revived = inserted ? null : await reviveVanishedDeposit(tx, output, confirmations, now());
      if (!inserted && !revived) return null;

      const current = await lockOrder(tx, order.id);
      if (!current) return null;
      const creditKey = `${current.id}:${output.txid}:${output.vout}:${inserted ? 'seen' : `revived-${now().getTime()}`}`;
      await recordNewTransaction(tx, current, output, creditKey);
      /** A credit that moves no order still tells the customer (their order as it now is). */
      const flagged = async (row: OrderRow | undefined | null): Promise<OrderRow | null> => {
        if (!row) return null;
        await recordOrderNotices(tx, row, { eventKey: `deposit-flag:${creditKey}`, messages: true });
        return row;
      };
      const btc = `${formatBtc(output.valueSats)} BTC`;
      if (current.status === 'pending' || current.status === 'expired') {
        const late = current.status === 'expired';
        const settings = await findGlobalSettings(tx);
        const latestPrice = deps.prices.current();
        // A late deposit is priced now; an on-time one at the price locked with the order.
        const priceCents = late && latestPrice ? latestPrice.buyPriceCents : current.priceCents;
        const differs = output.valueSats !== current.amountSats;
        const quote =
          late || differs
            ? quoteSellFromBtc({
                amountSats: output.valueSats,
                buyPriceCents: priceCents,
                feeBps: settings.platformFeeBps,
                bankChargesCents: current.bankFeeCents,
              })
            : null;
        const flag = late
          ? 'late_deposit'
          : output.valueSats < current.amountSats
            ? 'underpaid'
            : differs
              ? 'overpaid'
              : null;
        const flagNote = flag
          ? `${flag.replace('_', ' ')}: received ${btc}, order was for ${formatBtc(current.amountSats)} BTC${quote ? '; re-priced' : '; too small to pay out after fees'}`
          : null;
        if ((late || differs) && !quote) {
          // Too little to pay anything out after fees: the deposit is recorded and the order flagged
          // for the back office, but it keeps waiting. Moving it on would leave its full value due for
          // a few satoshis.
          return flagged(await flagOrder(tx, current.id, { flag, flagNote }, now()));
        }
        return moveOrder(tx, {
          orderId: current.id,
          from: ['pending', 'expired'],
          to: 'processing',
          actor: 'system:deposit-watcher',
          reason: late ? 'deposit arrived after the window closed' : 'deposit seen on chain',
          patch: {
            txn: output.txid,
            receivedSats: output.valueSats,
            confirmations,
            flag,
            flagNote,
            ...(quote
              ? {
                  amountSats: quote.amountSats,
                  valueCents: quote.valueCents,
                  priceCents: quote.priceCents,
                  platformFeeCents: quote.platformFeeCents,
                }
              : {}),
          },
          details: { txid: output.txid, vout: output.vout, valueSats: output.valueSats.toString() },
        });
      }
      // A second payment to an address whose order is already under way or closed: keep it, flag it.
      return flagged(
        await flagOrder(
          tx,
          current.id,
          { flag: 'extra_deposit', flagNote: `another ${btc} arrived in ${output.txid}:${output.vout}` },
          now(),
        ),
      );
    });
  }

  /** Every output paying the order's deposit address. */
  async function outputsOf(order: OrderRow): Promise<ChainOutput[]> {
    return (await chain.outputsTo(order.walletAddress!)).filter((o) => o.address === order.walletAddress);
  }

  const outputOf = (outputs: ChainOutput[], deposit: DepositRow) =>
    outputs.find((o) => o.txid === deposit.txid && o.vout === deposit.vout);

  /** Updates confirmations of what we credited, and handles transactions that disappeared. */
  async function track(order: OrderRow, outputs: ChainOutput[], tip: number): Promise<OrderRow | null> {
    const known = await findSeenDeposits(db, order.id);
    // `outputs` and `tip` were read before `known`: another watcher may have recorded a newer view of
    // the chain meanwhile (a deposit that arrived after our read, another confirmation). So before
    // anything changes on the strength of a difference, the chain is read again, and every change
    // below only applies if the row is still as read: an older view never undoes a newer one.
    const differs = known.some((deposit) => {
      const output = outputOf(outputs, deposit);
      return !output || confirmationsOf(output, tip) !== deposit.confirmations;
    });
    if (!differs) return null;
    outputs = await outputsOf(order);
    tip = await chain.tipHeight();

    let changed: OrderRow | null = null;
    for (const deposit of known) {
      const output = outputOf(outputs, deposit);
      if (!output) {
        const moved = await db.transaction(async (tx) => {
          if (!(await markDepositVanished(tx, deposit.id, now()))) return null;
          const current = await lockOrder(tx, order.id);
          if (current?.status !== 'processing' || current.txn !== deposit.txid) return null;
          return moveOrder(tx, {
            orderId: current.id,
            from: ['processing'],
            to: 'pending',
            actor: 'system:deposit-watcher',
            reason: 'deposit transaction disappeared from the chain',
            patch: {
              txn: null,
              confirmations: 0,
              receivedSats: null,
              flag: 'vanished_tx',
              flagNote: `${deposit.txid} is no longer on the chain`,
            },
          });
        });
        changed = moved ?? changed;
        continue;
      }
      const confirmations = confirmationsOf(output, tip);
      if (confirmations === deposit.confirmations) continue;
      const updated = await db.transaction(async (tx) => {
        const counted = await updateDepositConfirmations(
          tx,
          deposit,
          { confirmations, blockHeight: output.blockHeight },
          now(),
        );
        // Another watcher counted it first (and announces it).
        if (!counted || order.txn !== deposit.txid) return null;
        const updated = await updateDepositConfirmationsOfOrder(
          tx,
          order.id,
          deposit.txid,
          confirmations,
          now(),
        );
        if (!updated) return null;
        // Each new confirmation reaches the customer's pages; they are messaged once, when it is enough.
        const enough =
          deposit.confirmations < deps.confirmationsRequired && confirmations >= deps.confirmationsRequired;
        await recordOrderNotices(tx, updated, {
          eventKey: `deposit-confirmations:${deposit.id}:${confirmations}`,
          messages: enough,
        });
        return updated;
      });
      if (updated) await notify(updated);
    }
    return changed;
  }

  return {
    /** One pass over every watched address. Safe to run in several processes at once. */
    async pollOnce(): Promise<{ credited: number }> {
      const watched = await watchedOrders();
      if (watched.length === 0) return { credited: 0 };
      const tip = await chain.tipHeight();
      let credited = 0;
      for (const order of watched) {
        const outputs = await outputsOf(order);
        for (const output of outputs) {
          const confirmations = confirmationsOf(output, tip);
          const updated = await credit(order, output, confirmations);
          if (updated) {
            credited += 1;
            deps.onCredited?.();
            await notify(updated);
          }
        }
        const fresh = await findOrder(db, order.id);
        const moved = fresh ? await track(fresh, outputs, tip) : null;
        if (moved) await notify(moved);
      }
      return { credited };
    },
  };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
