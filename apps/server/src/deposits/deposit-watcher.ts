import { and, eq, gt, inArray, isNotNull, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatBtc, satsToBtcNumber } from '@offzero/shared/money/money';
import { quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import { confirmationsOf, type ChainApi, type ChainOutput } from '../chain/chain-api';
import type { Database } from '../db/database';
import { deposits, orders, type DepositRow, type OrderRow } from '../db/schema';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { moveOrder } from '../orders/order-state';
import type { OrderNotifier } from '../orders/order-notifications';
import { toOrderResponse } from '../orders/order.presenter';
import type { PriceBook } from '../orders/order.service';
import type { EventBus } from '../realtime/event-bus';

/** Expired and cancelled sells are still watched this long, so a late deposit is never lost. */
export const LATE_DEPOSIT_WATCH_MS = 24 * 3600_000;

/**
 * Watches every open sell order's deposit address (DESIGN.md section 3): credits each output exactly
 * once by `txid:vout` (the unique row is inserted in the same transaction as the credit, so two
 * watchers cannot both credit), announces it, counts confirmations, re-prices and flags under-, over-
 * and late payments, and takes an order back to waiting when its transaction disappears.
 */
export function createDepositWatcher(deps: {
  db: Database;
  chain: ChainApi;
  prices: PriceBook;
  bus: EventBus;
  notify: OrderNotifier;
  confirmationsRequired: number;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db, chain, bus, notify, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function watchedOrders(): Promise<OrderRow[]> {
    const lateSince = new Date(now().getTime() - LATE_DEPOSIT_WATCH_MS);
    return db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.type, 'sell'),
          isNotNull(orders.walletAddress),
          or(
            inArray(orders.status, ['pending', 'processing']),
            and(inArray(orders.status, ['expired', 'cancelled']), gt(orders.quoteExpiresAt, lateSince)),
          ),
        ),
      );
  }

  /** After commit: the spec's `new-transaction` notice, then the usual status notice. */
  async function announce(order: OrderRow, output: ChainOutput | null): Promise<void> {
    if (output) {
      await bus
        .publish(order.userId, {
          type: 'new-transaction',
          payload: { amount: satsToBtcNumber(output.valueSats), _id: order.id, txn: output.txid },
        })
        .catch((error: unknown) => log.warn({ err: error, orderId: order.id }, 'realtime publish failed'));
    }
    await notify(order);
  }

  /** Credits one output if no watcher has before; returns the order as it now is, or null. */
  async function credit(
    order: OrderRow,
    output: ChainOutput,
    confirmations: number,
  ): Promise<OrderRow | null> {
    return db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(deposits)
        .values({
          orderId: order.id,
          address: output.address,
          txid: output.txid,
          vout: output.vout,
          valueSats: output.valueSats,
          blockHeight: output.blockHeight,
          confirmations,
        })
        .onConflictDoNothing()
        .returning();
      // Seen before: nothing to do, unless it had vanished and is back (rebroadcast).
      const revived = inserted
        ? null
        : (
            await tx
              .update(deposits)
              .set({ status: 'seen', blockHeight: output.blockHeight, confirmations, updatedAt: now() })
              .where(
                and(
                  eq(deposits.txid, output.txid),
                  eq(deposits.vout, output.vout),
                  eq(deposits.status, 'vanished'),
                ),
              )
              .returning()
          )[0];
      if (!inserted && !revived) return null;

      const [current] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
      if (!current) return null;
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
          const [flagged] = await tx
            .update(orders)
            .set({ flag, flagNote, updatedAt: now() })
            .where(eq(orders.id, current.id))
            .returning();
          return flagged ?? null;
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
      const [flagged] = await tx
        .update(orders)
        .set({
          flag: 'extra_deposit',
          flagNote: `another ${btc} arrived in ${output.txid}:${output.vout}`,
          updatedAt: now(),
        })
        .where(eq(orders.id, current.id))
        .returning();
      return flagged ?? null;
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
    const known = await db
      .select()
      .from(deposits)
      .where(and(eq(deposits.orderId, order.id), eq(deposits.status, 'seen')));
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
          const [vanished] = await tx
            .update(deposits)
            .set({ status: 'vanished', updatedAt: now() })
            .where(and(eq(deposits.id, deposit.id), eq(deposits.status, 'seen')))
            .returning({ id: deposits.id });
          if (!vanished) return null;
          const [current] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
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
      const [counted] = await db
        .update(deposits)
        .set({ confirmations, blockHeight: output.blockHeight, updatedAt: now() })
        .where(
          and(
            eq(deposits.id, deposit.id),
            eq(deposits.status, 'seen'),
            eq(deposits.confirmations, deposit.confirmations),
          ),
        )
        .returning({ id: deposits.id });
      // Another watcher counted it first (and announces it).
      if (!counted) continue;
      if (order.txn === deposit.txid) {
        const [updated] = await db
          .update(orders)
          .set({ confirmations, updatedAt: now() })
          .where(and(eq(orders.id, order.id), eq(orders.txn, deposit.txid)))
          .returning();
        // Announce each new confirmation; the customer is messaged once, when it is enough.
        if (updated) {
          await bus
            .publish(order.userId, { type: 'order-updated', payload: { order: toOrderResponse(updated) } })
            .catch(() => undefined);
          if (
            deposit.confirmations < deps.confirmationsRequired &&
            confirmations >= deps.confirmationsRequired
          )
            await notify(updated);
        }
      }
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
            await announce(updated, output);
          }
        }
        const [fresh] = await db.select().from(orders).where(eq(orders.id, order.id));
        const moved = fresh ? await track(fresh, outputs, tip) : null;
        if (moved) await announce(moved, null);
      }
      return { credited };
    },
  };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
