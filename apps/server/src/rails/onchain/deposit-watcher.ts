import type { FastifyBaseLogger } from 'fastify';
import { formatBtc, formatUsd, satsToBtcNumber } from '@offzero/shared/money/money';
import { ChainApiError, confirmationsOf, type ChainApi, type ChainOutput } from '../../chain/chain-api';
import type { Database, Transaction } from '../../db/database';
import type { DepositRow, OrderRow } from '../../db/schema';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { crossedTradingLimit } from '../../limits/limits.service';
import { moveOrder, recordOrderRequoted } from '../../orders/order-state';
import { recordOrderNotices, type OrderNotifier } from '../../orders/order-notifications';
import { flagOrder, lockOrder, updateDepositConfirmationsOfOrder } from '../../orders/order.repository';
import { writeOutbox } from '../../outbox/outbox.repository';
import type { PriceBook } from '../../prices/price-book';
import { restrictCustomer } from '../../users/customer-restriction.repository';
import { findSanctionedAddresses } from '../../compliance/sanctions/sanctions-screening';
import {
  deleteScanBlocksAbove,
  findNewestScanBlocks,
  findOrCreateDepositTerms,
  findScanBlocksAt,
  findSeenDepositsIn,
  findSeenDepositsOfWatchedOrders,
  findWatchedDepositAddresses,
  insertDepositOnce,
  saveScanBlocks,
  markDepositVanished,
  repriceOrder,
  reviveVanishedDeposit,
  updateDepositConfirmations,
} from './deposit.repository';
import { priceDeposits } from './deposit-pricing';

/** Expired and cancelled sells are still watched this long, so a late deposit is never lost. */
export const LATE_DEPOSIT_WATCH_MS = 24 * 3600_000;

/** Completed sells are still watched until their deposit is this deep: a reversal after payout is caught. */
export const REVERSAL_WATCH_CONFIRMATIONS = 6;

/** The newest matched blocks searched for a reorganisation's fork point; deeper, every address is looked at. */
export const REORG_WALK_BACK_BLOCKS = 24;

/** Further behind the tip than this (a day of blocks), each watched address is looked at once instead. */
export const CATCH_UP_AFTER_BLOCKS = 144;

/** Blocks read per pass at most (a busy block has some 10,000 outputs); the rest wait for the next pass. */
export const BLOCKS_PER_PASS = 6;

/** New mempool transactions read per pass at most; the rest wait for the next pass (or their block). */
export const MEMPOOL_TRANSACTIONS_PER_PASS = 2_000;

/** Addresses looked at on their own at once when catching up. */
const PARALLEL_LOOKS = 8;

/** How far the clocks of two server processes may disagree (a block's reading time against an order's creation). */
const CLOCK_SLACK_MS = 60_000;

/**
 * The flags the watcher raises about deposits themselves; a later deposit may replace one. Any other
 * flag (`over_limit`, `deposit_reversed`, a sanctions or payment flag) holds the order until a person
 * resolves it, so the watcher keeps it and only adds to its note.
 */
const DEPOSIT_FLAGS: ReadonlySet<string> = new Set([
  'underpaid',
  'overpaid',
  'late_deposit',
  'extra_deposit',
  'vanished_tx',
]);

/**
 * The order's flag after a deposit event that raised `raised` (or nothing). An earlier deposit's flag
 * is never wiped by a later deposit (a dust first payment stays visible); it is kept in the note when
 * a newer one replaces it. Only a vanished transaction, once replaced, needs nobody.
 */
export function nextFlag(
  order: Pick<OrderRow, 'flag' | 'flagNote'>,
  raised: { flag: string; note: string } | null,
): { flag: string | null; flagNote: string | null } {
  const existing = order.flag;
  if (existing && !DEPOSIT_FLAGS.has(existing)) {
    return {
      flag: existing,
      flagNote: raised ? `${order.flagNote ?? existing}; then ${raised.note}` : order.flagNote,
    };
  }
  const earlier = existing && existing !== 'vanished_tx' ? existing : null;
  if (raised) {
    return {
      flag: raised.flag,
      flagNote: earlier ? `${raised.note}; earlier ${earlier}: ${order.flagNote ?? ''}` : raised.note,
    };
  }
  return earlier ? { flag: earlier, flagNote: order.flagNote } : { flag: null, flagNote: null };
}

/**
 * Watches every open sell order's deposit address (docs/design.md): credits each output exactly
 * once by `txid:vout` (the unique row is inserted in the same transaction as the credit, so two
 * watchers cannot both credit), announces it, counts confirmations, re-prices and flags under-, over-
 * and late payments, and takes an order back to waiting when its transaction disappears. docs/design.md
 * 7.7: split deposits are priced on their sum, an over-payment beyond the quoted amount at the lower of
 * the locked and current price, an order pushed over `max_order_size` is flagged `over_limit` (held);
 * completed sells stay watched until their deposit is 6 blocks deep, and a paid deposit that vanishes
 * flags the order `deposit_reversed` and restricts the customer. Every notice
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
  /** Told of each deposit credited, with its order (the `offzero_deposits_credited_total` metric, monitoring). */
  onCredited?: (order: OrderRow) => void;
}) {
  const { db, chain, notify } = deps;
  const now = deps.now ?? (() => new Date());

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
   * Prices every deposit of an open sell on their sum (docs/design.md) inside the caller's transaction:
   * a pending or expired order moves to processing, a processing one is re-priced where it is. `latest`
   * is the deposit the order now waits on for confirmations (the newest). A sum too small to pay
   * anything out after fees only flags the order: moving it on would leave its full value due for a
   * few satoshis. Returns the order as it now is, its notices written.
   */
  async function priceOnSum(
    tx: Transaction,
    current: OrderRow,
    latest: { txid: string; confirmations: number },
    change: { eventKey: string; reason: string; details: Record<string, unknown>; vanished?: string },
  ): Promise<OrderRow | null> {
    const late = current.status === 'expired';
    const settings = await findGlobalSettings(tx);
    const currentPrice = deps.prices.current()?.buyPriceCents ?? null;
    const terms = await findOrCreateDepositTerms(tx, {
      orderId: current.id,
      quotedSats: current.amountSats,
      lockedPriceCents: current.priceCents,
      // A late deposit is priced now; an on-time one at the price locked with the order.
      basePriceCents: late && currentPrice ? currentPrice : current.priceCents,
    });
    const seen = await findSeenDepositsIn(tx, current.id);
    const receivedSats = seen.reduce((sum, deposit) => sum + deposit.valueSats, 0n);
    if (receivedSats === 0n) return null;
    const quote = priceDeposits({
      receivedSats,
      quotedSats: terms.quotedSats,
      basePriceCents: terms.basePriceCents,
      lockedPriceCents: terms.lockedPriceCents,
      currentPriceCents: currentPrice,
      feeBps: settings.platformFeeBps,
      bankChargesCents: current.bankFeeCents,
    });
    const overMaximum = quote !== null && quote.valueCents > settings.maxOrderCents;
    // An over-payment may also take the customer past their own rolling limits (docs/design.md):
    // what is left of each window without this order, counted now.
    const crossedWindow =
      quote !== null && !overMaximum && receivedSats > terms.quotedSats
        ? await crossedTradingLimit(tx, {
            userId: current.userId,
            valueCents: quote.valueCents,
            now: now(),
            exceptOrderId: current.id,
          })
        : null;
    const overLimit = overMaximum || crossedWindow !== null;
    const raised = overLimit
      ? 'over_limit'
      : change.vanished
        ? 'vanished_tx'
        : late
          ? 'late_deposit'
          : receivedSats < terms.quotedSats
            ? 'underpaid'
            : receivedSats > terms.quotedSats
              ? 'overpaid'
              : null;
    const what = `received ${formatBtc(receivedSats)} BTC${seen.length > 1 ? ` in ${seen.length} deposits` : ''}, order was for ${formatBtc(terms.quotedSats)} BTC`;
    const outcome = !quote
      ? 'too small to pay out after fees'
      : overLimit
        ? crossedWindow
          ? `worth $${formatUsd(quote.valueCents)}, over the customer's ${crossedWindow}: held`
          : `worth $${formatUsd(quote.valueCents)}, over the $${formatUsd(settings.maxOrderCents)} order limit: held`
        : 're-priced';
    const flag = nextFlag(
      current,
      raised
        ? {
            flag: raised,
            note: `${raised.replace('_', ' ')}: ${change.vanished ? `${change.vanished} is no longer on the chain; ` : ''}${what}; ${outcome}`,
          }
        : null,
    );
    // The locked figures stand for an on-time deposit of exactly the quoted amount.
    const reprice =
      quote && (late || receivedSats !== terms.quotedSats || current.amountSats !== terms.quotedSats);
    const figures = reprice
      ? {
          amountSats: quote.amountSats,
          valueCents: quote.valueCents,
          priceCents: quote.priceCents,
          platformFeeCents: quote.platformFeeCents,
        }
      : {};
    const notices = async (row: OrderRow | undefined): Promise<OrderRow | null> => {
      if (!row) return null;
      await recordOrderNotices(tx, row, { eventKey: change.eventKey, messages: true });
      return row;
    };
    if (!quote) return notices(await flagOrder(tx, current.id, flag, now(), 'system:deposit-watcher'));
    const patch = {
      ...figures,
      ...flag,
      txn: latest.txid,
      confirmations: latest.confirmations,
      receivedSats,
    };
    if (current.status === 'pending' || current.status === 'expired') {
      return moveOrder(tx, {
        orderId: current.id,
        from: ['pending', 'expired'],
        to: 'processing',
        actor: 'system:deposit-watcher',
        reason: late ? 'deposit arrived after the window closed' : change.reason,
        patch,
        details: {
          ...change.details,
          receivedSats: receivedSats.toString(),
          ...(reprice && raised ? { why: raised } : {}),
        },
      });
    }
    const after = await repriceOrder(tx, current.id, patch, now());
    if (!after) return null;
    await recordOrderRequoted(tx, {
      before: current,
      after,
      actor: 'system:deposit-watcher',
      reason: change.reason,
      why: raised,
    });
    return notices(after);
  }

  /**
   * A deposit spent from a sanctioned address (docs/design.md): the order is flagged `sanctions_hit`,
   * whatever flag it had (kept in the note), so it is held and never paid out, and the customer is
   * restricted. Nothing tells the customer why: no message goes out, only the order's realtime update.
   */
  async function holdForSanctions(
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
      now(),
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

  /** Credits one output if no watcher has before; returns the order as it now is, or null. */
  async function credit(
    orderId: string,
    output: ChainOutput,
    confirmations: number,
  ): Promise<OrderRow | null> {
    // Screened before the crediting transaction (a read); applied inside it, with the credit.
    const listed = await findSanctionedAddresses(db, output.inputAddresses);
    return db.transaction(async (tx) => {
      const credited = await creditIn(tx, orderId, output, confirmations);
      if (!credited.inserted || listed.length === 0) return credited.order;
      const current = credited.order ?? (await lockOrder(tx, orderId));
      return current ? holdForSanctions(tx, current, output, listed) : null;
    });
  }

  /**
   * The crediting itself, in the caller's transaction: `inserted` says whether this output is new, and
   * `order` is the order as it now is (null when nothing changed).
   */
  async function creditIn(
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
    const revived = inserted ? null : await reviveVanishedDeposit(tx, output, confirmations, now());
    if (!inserted && !revived) return result(null);

    const current = await lockOrder(tx, orderId);
    if (!current) return result(null);
    const creditKey = `${current.id}:${output.txid}:${output.vout}:${inserted ? 'seen' : `revived-${now().getTime()}`}`;
    await recordNewTransaction(tx, current, output, creditKey);
    if (current.status === 'pending' || current.status === 'expired' || current.status === 'processing') {
      // Not paid out yet: split deposits are priced on their sum.
      const priced = await priceOnSum(
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
      now(),
      'system:deposit-watcher',
    );
    if (!flagged) return result(null);
    await recordOrderNotices(tx, flagged, { eventKey: `deposit-flag:${creditKey}`, messages: true });
    return result(flagged);
  }

  /**
   * A deposit of a completed sell left the chain (reorganisation or double spend): if it was paid for
   * (seen before the payout), the dollars went out for coins we no longer have. The order is flagged
   * `deposit_reversed` and the customer restricted from trading until staff look into it.
   */
  async function reverseAfterPayout(
    tx: Transaction,
    current: OrderRow,
    deposit: DepositRow,
  ): Promise<OrderRow | null> {
    if (current.completedAt && deposit.firstSeenAt > current.completedAt) return null;
    const what = `${deposit.txid}:${deposit.vout} (${formatBtc(deposit.valueSats)} BTC) left the chain after the dollars were paid`;
    const flagged = await flagOrder(
      tx,
      current.id,
      {
        flag: 'deposit_reversed',
        flagNote: current.flag ? `${what}; earlier ${current.flag}: ${current.flagNote ?? ''}` : what,
      },
      now(),
      'system:deposit-watcher',
    );
    await restrictCustomer(
      tx,
      current.userId,
      `the deposit of sell order #${current.id.slice(0, 8)} was reversed after payout`,
    );
    if (!flagged) return null;
    await recordOrderNotices(tx, flagged, { eventKey: `deposit-reversed:${deposit.id}`, messages: false });
    return flagged;
  }

  /**
   * A seen deposit the chain no longer has (dropped, replaced or reorganised away): the order goes back
   * to waiting, is priced on what is left, or (paid out already) is flagged `deposit_reversed`.
   */
  async function vanish(deposit: DepositRow): Promise<OrderRow | null> {
    const orderId = deposit.orderId;
    if (!orderId) return null;
    return db.transaction(async (tx) => {
      if (!(await markDepositVanished(tx, deposit.id, now()))) return null;
      const current = await lockOrder(tx, orderId);
      if (current?.status === 'completed') return reverseAfterPayout(tx, current, deposit);
      if (current?.status !== 'processing') return null;
      const remaining = await findSeenDepositsIn(tx, current.id);
      const newest = remaining.at(-1);
      if (newest) {
        // Other deposits are still there: the order is priced on what is left, and flagged.
        return priceOnSum(
          tx,
          current,
          { txid: newest.txid, confirmations: newest.confirmations },
          {
            eventKey: `deposit-vanished:${deposit.id}`,
            reason: 'a deposit disappeared from the chain; priced on the rest',
            details: { txid: deposit.txid, vout: deposit.vout },
            vanished: deposit.txid,
          },
        );
      }
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
  }

  /**
   * A new confirmation count of a seen deposit (and of its order, when the order waits on it). The row
   * only changes if it still has the count it was read with: another watcher may have counted first.
   */
  async function count(
    deposit: DepositRow,
    confirmations: number,
    blockHeight: number | null,
  ): Promise<OrderRow | null> {
    const orderId = deposit.orderId;
    if (!orderId) return null;
    return db.transaction(async (tx) => {
      const counted = await updateDepositConfirmations(tx, deposit, { confirmations, blockHeight }, now());
      // Another watcher counted it first (and announces it).
      if (!counted) return null;
      const updated = await updateDepositConfirmationsOfOrder(
        tx,
        orderId,
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
  }

  /**
   * Where the scan of blocks stands: the next height to read, and the height above which a
   * reorganisation may have moved or removed what was credited (null when nothing changed; -1 when
   * deeper than the blocks kept). With no block matched yet, too far behind, or a reorganisation deeper
   * than the blocks kept, `catchUp` says to look at each watched address once instead. The stored
   * blocks change only once the pass has done its work: a pass that fails finds the same again.
   */
  async function scanPosition(
    tip: number,
  ): Promise<{ catchUp: boolean; from: number; forkHeight: number | null }> {
    const stored = await findNewestScanBlocks(db, REORG_WALK_BACK_BLOCKS);
    const top = stored[0];
    if (!top) return { catchUp: true, from: tip + 1, forkHeight: null };
    for (const block of stored) {
      if ((await chain.blockHash(block.height)) !== block.hash) continue;
      if (block !== top) {
        deps.log.warn(
          { from: block.height + 1, to: top.height },
          'deposit watcher: blocks were replaced on the chain (reorganisation); reading them again',
        );
      }
      return {
        catchUp: tip - block.height > CATCH_UP_AFTER_BLOCKS,
        from: block.height + 1,
        forkHeight: block === top ? null : block.height,
      };
    }
    deps.log.warn(
      { below: stored.at(-1)?.height },
      'deposit watcher: the chain changed deeper than the blocks kept; looking at every watched address',
    );
    return { catchUp: true, from: tip + 1, forkHeight: -1 };
  }

  /** Mempool transactions this process has read, kept while they stay in the mempool. */
  const examined = new Set<string>();
  /** The orders this process watched at its last pass, and when it read them. */
  let previous: { orderIds: Set<string>; readAt: number } | null = null;

  return {
    /**
     * One pass: reads what is new on the chain (blocks since the last one matched, and mempool
     * transactions not read before), matches their outputs against the watched deposit addresses (one
     * query), credits what pays them, and counts the confirmations of what was credited. Its cost grows
     * with new transactions, not with open addresses: an address is looked at on its own only when the
     * watcher catches up (first run, far behind, a deep reorganisation) or its order comes back into
     * the watch. Safe to run in several processes at once.
     */
    async pollOnce(): Promise<{ credited: number }> {
      // 1. The chain, read before the watched orders: a deposit in what was read paid an order that
      // existed before, so it is in the list read after.
      let tip = await chain.tipHeight();
      const position = await scanPosition(tip);
      const found: ChainOutput[] = [];
      const scanned: { height: number; hash: string }[] = [];
      if (!position.catchUp) {
        const lastHeight = Math.min(tip, position.from + BLOCKS_PER_PASS - 1);
        for (let height = position.from; height <= lastHeight; height += 1) {
          const hash = await chain.blockHash(height);
          if (!hash) break;
          found.push(...(await chain.blockOutputs(height, hash)));
          scanned.push({ height, hash });
        }
      }
      // The mempool only brings deposits forward (seen before their block): a chain server that will
      // not answer for it (rate limits) leaves the pass to the blocks, which find them at 1 confirmation.
      let inMempool: Set<string> | null = null;
      let unread: string[];
      try {
        const mempool = await chain.mempoolTxids();
        unread = mempool.filter((txid) => !examined.has(txid)).slice(0, MEMPOOL_TRANSACTIONS_PER_PASS);
        if (unread.length > 0) found.push(...(await chain.outputsOfTransactions(unread)));
        inMempool = new Set(mempool);
      } catch (error) {
        if (!(error instanceof ChainApiError)) throw error;
        unread = [];
        deps.log.warn(
          { err: error },
          'deposit watcher: the mempool could not be read; following blocks only',
        );
      }

      // 2. The watched addresses, in one query.
      const lateSince = new Date(now().getTime() - LATE_DEPOSIT_WATCH_MS);
      const readAt = now().getTime();
      const watched = await findWatchedDepositAddresses(db, lateSince, REVERSAL_WATCH_CONFIRMATIONS);
      const byAddress = new Map(watched.map((entry) => [entry.address, entry]));

      // 3. Addresses looked at on their own: all of them when catching up; else orders that were
      // already there at the last pass without being watched (back within the late window).
      const last = previous;
      const looks = position.catchUp
        ? watched
        : last
          ? watched.filter(
              (entry) => !last.orderIds.has(entry.orderId) && entry.createdAt.getTime() < last.readAt,
            )
          : [];
      const looked = new Set<string>();
      for (let start = 0; start < looks.length; start += PARALLEL_LOOKS) {
        const batch = looks.slice(start, start + PARALLEL_LOOKS);
        const outputs = await Promise.all(batch.map((entry) => chain.outputsTo(entry.address)));
        batch.forEach((entry, i) => {
          found.push(...outputs[i]!.filter((o) => o.address === entry.address));
          looked.add(entry.address);
        });
      }
      if (position.catchUp) {
        const hash = await chain.blockHash(tip);
        if (hash) scanned.push({ height: tip, hash });
      }

      // 4. Match: one view per output, the confirmed one when read both ways.
      const views = new Map<string, ChainOutput>();
      for (const output of found) {
        if (!byAddress.has(output.address)) continue;
        const key = `${output.txid}:${output.vout}`;
        const seen = views.get(key);
        if (!seen || (seen.blockHeight === null && output.blockHeight !== null)) views.set(key, output);
      }
      // An address's history from before its order (a block read before the order existed) is not the
      // order's deposit.
      const thisPass = new Set(scanned.map((block) => block.height));
      const heights = [
        ...new Set([...views.values()].flatMap((o) => (o.blockHeight === null ? [] : [o.blockHeight]))),
      ];
      // Blocks above a reorganisation's fork are not what was read then.
      const fork = position.forkHeight;
      const stillOnChain = (height: number) => !thisPass.has(height) && (fork === null || height <= fork);
      const readBefore = new Map(
        (await findScanBlocksAt(db, heights.filter(stillOnChain))).map((block) => [
          block.height,
          block.scannedAt.getTime(),
        ]),
      );
      const outputs = [...views.values()]
        .filter((output) => {
          const read = output.blockHeight === null ? undefined : readBefore.get(output.blockHeight);
          const order = byAddress.get(output.address)!;
          return read === undefined || read >= order.createdAt.getTime() - CLOCK_SLACK_MS;
        })
        .sort((a, b) => (a.blockHeight ?? Infinity) - (b.blockHeight ?? Infinity));

      // 5. Credit.
      let credited = 0;
      for (const output of outputs) {
        const updated = await credit(
          byAddress.get(output.address)!.orderId,
          output,
          confirmationsOf(output, tip),
        );
        if (updated) {
          credited += 1;
          deps.onCredited?.(updated);
          await notify(updated);
        }
      }

      // 6. Count confirmations and find what left the chain, for every deposit still watched. `known`
      // is read after the chain: another watcher may have recorded a newer view meanwhile, so anything
      // but more confirmations of the same block is read again from the chain before it changes a row.
      const known = await findSeenDepositsOfWatchedOrders(db, lateSince, REVERSAL_WATCH_CONFIRMATIONS);
      let tipReadAgain = false;
      for (const deposit of known) {
        const output = views.get(`${deposit.txid}:${deposit.vout}`);
        let blockHeight: number | null | undefined;
        if (output) blockHeight = output.blockHeight;
        else if (looked.has(deposit.address)) blockHeight = undefined;
        else if (deposit.blockHeight === null) {
          // Without a mempool read, an unconfirmed deposit stays as it was until its block or the next pass.
          blockHeight = !inMempool || inMempool.has(deposit.txid) ? null : undefined;
        } else if (position.forkHeight === null || deposit.blockHeight <= position.forkHeight) {
          blockHeight = deposit.blockHeight;
        }
        const confirmations = blockHeight === undefined ? undefined : confirmationsOf({ blockHeight }, tip);
        if (confirmations === deposit.confirmations && blockHeight === deposit.blockHeight) continue;
        const progress =
          blockHeight !== undefined &&
          blockHeight !== null &&
          (deposit.blockHeight === null || deposit.blockHeight === blockHeight) &&
          confirmations! > deposit.confirmations;
        let changed: OrderRow | null;
        if (progress) {
          changed = await count(deposit, confirmations!, blockHeight!);
        } else {
          const status = await chain.transactionStatus(deposit.txid);
          if (!tipReadAgain) {
            tip = await chain.tipHeight();
            tipReadAgain = true;
          }
          if (!status) {
            changed = await vanish(deposit);
          } else {
            const counted = confirmationsOf(status, tip);
            changed =
              counted === deposit.confirmations && status.blockHeight === deposit.blockHeight
                ? null
                : await count(deposit, counted, status.blockHeight);
          }
        }
        if (changed) await notify(changed);
      }

      // 7. Where the next pass resumes.
      if (position.forkHeight !== null) {
        await deleteScanBlocksAbove(db, position.forkHeight < 0 ? null : position.forkHeight);
      }
      await saveScanBlocks(db, scanned, now());
      for (const txid of unread) examined.add(txid);
      if (inMempool) for (const txid of examined) if (!inMempool.has(txid)) examined.delete(txid);
      previous = { orderIds: new Set(watched.map((entry) => entry.orderId)), readAt };
      return { credited };
    },
  };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
