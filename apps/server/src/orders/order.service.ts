import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import {
  BUY_CHECK_MESSAGES,
  SELL_METHOD_MESSAGES,
  type SaveOrderRequest,
  type UpdateOrderRequest,
} from '@offzero/shared/api/orders';
import { isValidBitcoinAddress, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import {
  btcNumberToSats,
  MoneyParseError,
  usdNumberToCents,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd, quoteSellFromBtc, quotesMatch } from '@offzero/shared/quotes/quote';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Database } from '../db/database';
import {
  kycRecords,
  orders,
  priceSnapshots,
  userSettings,
  type GlobalSettingsRow,
  type OrderRow,
  type PaymentMethod,
  type PriceSnapshotRow,
  type UserRow,
} from '../db/schema';
import { AppError } from '../http/errors';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { isUuid } from '../auth/sessions';
import { moveOrder, recordOrderCreated } from './order-state';
import { deriveDepositAddress } from '../deposits/deposit-address';
import type { OrderNotifier } from './order-notifications';

/** Prices the server has served: the newest, whether it is too old to quote from, and the recent ones. */
export interface PriceBook {
  current(): PriceSnapshotRow | null;
  isStale(): boolean;
}

/** How long after a price was served the server still honours a quote made from it (DESIGN.md). */
export const QUOTE_PRICE_GRACE_MS = 2 * 60_000;
export const PRICE_CHANGED = 'The price has changed. Review the new quote and confirm again.';
export const PRICES_UNAVAILABLE =
  'Live prices are unavailable right now, so we cannot quote. Try again in a few minutes.';

interface Figures {
  amountSats: Sats;
  valueCents: Cents;
  priceCents: Cents;
  platformFeeCents: Cents;
  networkFeeCents: Cents;
  bankFeeCents: Cents;
}

/** A sell deposit must arrive within 20 minutes (spec section 9). */
export const DEPOSIT_WINDOW_MS = 1_200_000;

export function createOrderService(deps: {
  db: Database;
  prices: PriceBook;
  network: BitcoinNetwork;
  /** The operator's BIP84 account key that sell deposit addresses are derived from. */
  depositXpub: string;
  notify: OrderNotifier;
  now?: () => Date;
}) {
  const { db, prices, network, notify, depositXpub } = deps;
  const now = deps.now ?? (() => new Date());

  /** The customer checks of spec section 5, in the spec's order, with its exact messages. */
  async function assertMayTrade(
    user: UserRow,
    settings: GlobalSettingsRow,
    valueCents: Cents,
    type: 'buy' | 'sell',
  ): Promise<void> {
    if (!user.emailVerified) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.emailNotVerified);
    if (!user.phoneVerified) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.phoneNotVerified);
    if (type === 'sell') {
      const [bank] = await db
        .select({ accountNumber: userSettings.accountNumber })
        .from(userSettings)
        .where(eq(userSettings.userId, user.id));
      if (!bank?.accountNumber) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.noBankAccount);
    }
    const [kyc] = await db
      .select({ status: kycRecords.status })
      .from(kycRecords)
      .where(eq(kycRecords.userId, user.id));
    if (!kyc) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.noKyc);
    if (kyc.status !== 'GREEN') throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.kycNotApproved);
    assertWithinLimits(settings, valueCents);
  }

  /** `min_order_size` … `max_order_size`, checked on the client's value and again on the server's own. */
  function assertWithinLimits(settings: GlobalSettingsRow, valueCents: Cents): void {
    if (valueCents > settings.maxOrderCents) {
      throw new AppError(
        'BAD_REQUEST',
        BUY_CHECK_MESSAGES.maximum(formatCentsAsCurrency(settings.maxOrderCents)),
      );
    }
    if (valueCents < settings.minOrderCents) {
      throw new AppError('BAD_REQUEST', `Minimum order is ${formatCentsAsCurrency(settings.minOrderCents)}`);
    }
  }

  function parseMoney(body: SaveOrderRequest): Figures {
    try {
      const figures = {
        amountSats: btcNumberToSats(body.amount),
        valueCents: usdNumberToCents(body.value),
        priceCents: usdNumberToCents(body.price),
        platformFeeCents: usdNumberToCents(body.platformFee),
        networkFeeCents: body.type === 'buy' ? usdNumberToCents(body.networkFee ?? 0) : 0n,
        bankFeeCents: body.type === 'sell' ? usdNumberToCents(body.bankFee ?? 0) : 0n,
      };
      if (figures.amountSats <= 0n || figures.valueCents <= 0n || figures.priceCents <= 0n) {
        throw new AppError('BAD_REQUEST', 'Enter an amount greater than zero.');
      }
      return figures;
    } catch (error) {
      if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
      throw error;
    }
  }

  /**
   * The prices the customer may have been quoted: those the server served in the last two minutes at
   * exactly the rate the client sent (the buy rate for a buy, the sell rate for a sell), newest first.
   * Refuses to quote at all while prices are stale.
   */
  async function servedPricesAt(side: 'sell' | 'buy', priceCents: Cents): Promise<PriceSnapshotRow[]> {
    if (prices.isStale() || !prices.current()) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
    const column = side === 'sell' ? priceSnapshots.sellPriceCents : priceSnapshots.buyPriceCents;
    return db
      .select()
      .from(priceSnapshots)
      .where(
        and(
          eq(column, priceCents),
          gt(priceSnapshots.fetchedAt, new Date(now().getTime() - QUOTE_PRICE_GRACE_MS)),
        ),
      )
      .orderBy(desc(priceSnapshots.fetchedAt));
  }

  /**
   * Recomputes the buy quote from a served price and the current settings; the client's figures must
   * agree within 1 cent and 100 satoshis.
   */
  async function requoteBuy(
    client: Figures,
    settings: GlobalSettingsRow,
  ): Promise<{ figures: Figures; snapshot: PriceSnapshotRow }> {
    for (const snapshot of await servedPricesAt('sell', client.priceCents)) {
      const quote = quoteBuyFromUsd({
        valueCents: client.valueCents,
        sellPriceCents: snapshot.sellPriceCents,
        feeBps: settings.platformFeeBps,
        networkFeeSats: snapshot.networkFeeSats,
      });
      if (
        quote &&
        quotesMatch(quote, {
          ...quote,
          amountSats: client.amountSats,
          platformFeeCents: client.platformFeeCents,
          networkFeeCents: client.networkFeeCents,
        })
      ) {
        const { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents } = quote;
        return {
          snapshot,
          figures: {
            amountSats,
            valueCents,
            priceCents,
            platformFeeCents,
            networkFeeCents,
            bankFeeCents: 0n,
          },
        };
      }
    }
    throw new AppError('BAD_REQUEST', PRICE_CHANGED);
  }

  /** The sell counterpart: the customer's BTC at a served buy price, less the method's bank charges. */
  async function requoteSell(
    client: Figures,
    settings: GlobalSettingsRow,
    bankChargesCents: Cents,
  ): Promise<{ figures: Figures; snapshot: PriceSnapshotRow }> {
    for (const snapshot of await servedPricesAt('buy', client.priceCents)) {
      const quote = quoteSellFromBtc({
        amountSats: client.amountSats,
        buyPriceCents: snapshot.buyPriceCents,
        feeBps: settings.platformFeeBps,
        bankChargesCents,
      });
      if (
        quote &&
        quotesMatch(quote, {
          ...quote,
          valueCents: client.valueCents,
          platformFeeCents: client.platformFeeCents,
          bankFeeCents: client.bankFeeCents,
        })
      ) {
        const { amountSats, valueCents, priceCents, platformFeeCents, bankFeeCents } = quote;
        return {
          snapshot,
          figures: {
            amountSats,
            valueCents,
            priceCents,
            platformFeeCents,
            networkFeeCents: 0n,
            bankFeeCents,
          },
        };
      }
    }
    throw new AppError('BAD_REQUEST', PRICE_CHANGED);
  }

  /** Spec section 5's payout-method checks, in order, and the customer's details to pay into. */
  async function sellPayout(
    user: UserRow,
    settings: GlobalSettingsRow,
    method: string | undefined,
  ): Promise<{
    method: Exclude<PaymentMethod, 'paypal'>;
    bankChargesCents: Cents;
    details: Record<string, string>;
  }> {
    const [own] = await db.select().from(userSettings).where(eq(userSettings.userId, user.id));
    if (!own) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.noSettings);
    const bank = {
      account_holder: own.accountName ?? '',
      account_number: own.accountNumber ?? '',
      bank_name: own.bankName ?? '',
      bank_address: own.bankAddress ?? '',
    };
    if (method === 'zelle' && settings.zelleActive) {
      if (!own.zelleEmail) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.zelle);
      return {
        method,
        bankChargesCents: settings.zelleBankChargesCents,
        details: { payment_address: own.zelleEmail },
      };
    }
    if (method === 'ach' && settings.achActive) {
      if (!own.routingNumber) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.ach);
      return {
        method,
        bankChargesCents: settings.achBankChargesCents,
        details: { ...bank, routing_number: own.routingNumber },
      };
    }
    if (method === 'wire' && settings.wireActive) {
      if (!own.swift) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.wire);
      return {
        method,
        bankChargesCents: settings.wireBankChargesCents,
        details: { ...bank, swift: own.swift },
      };
    }
    throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.invalidMethod);
  }

  async function ownOrder(user: UserRow, orderId: string): Promise<OrderRow> {
    // Another customer's order id answers exactly like a missing one.
    const [order] = isUuid(orderId)
      ? await db
          .select()
          .from(orders)
          .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
      : [];
    if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
    return order;
  }

  async function quoteFor(
    user: UserRow,
    body: SaveOrderRequest,
  ): Promise<{
    figures: Figures;
    snapshot: PriceSnapshotRow;
    walletAddress: string | null;
    paymentMethod: PaymentMethod | null;
    receivingDetails: Record<string, string> | null;
    quoteExpiresAt: Date;
  }> {
    const settings = await findGlobalSettings(db);
    const client = parseMoney(body);
    await assertMayTrade(user, settings, client.valueCents, body.type);
    if (body.type === 'sell') {
      const payout = await sellPayout(user, settings, body.bankAccount?.method);
      const { figures, snapshot } = await requoteSell(client, settings, payout.bankChargesCents);
      // The client's value may be a cent off the server's; the limits hold for what would be paid.
      assertWithinLimits(settings, figures.valueCents);
      return {
        figures,
        snapshot,
        walletAddress: null,
        paymentMethod: payout.method,
        receivingDetails: payout.details,
        quoteExpiresAt: new Date(now().getTime() + DEPOSIT_WINDOW_MS),
      };
    }
    const walletAddress = body.walletAddress?.trim() ?? '';
    if (!isValidBitcoinAddress(walletAddress, network)) {
      throw new AppError('BAD_REQUEST', BUY_CHECK_MESSAGES.invalidAddress);
    }
    const { figures, snapshot } = await requoteBuy(client, settings);
    const quoteExpiresAt = new Date(now().getTime() + settings.orderSessionTimeoutSeconds * 1000);
    return { figures, snapshot, walletAddress, paymentMethod: null, receivingDetails: null, quoteExpiresAt };
  }

  return {
    async save(user: UserRow, body: SaveOrderRequest): Promise<OrderRow> {
      const quote = await quoteFor(user, body);
      return db.transaction(async (tx) => {
        // A sell gets the next derivation index and its own fresh address, never used before.
        let deposit: { depositIndex: number | null; walletAddress: string | null } = {
          depositIndex: null,
          walletAddress: quote.walletAddress,
        };
        if (body.type === 'sell') {
          // Both drivers answer raw queries as { rows }.
          const result: unknown = await tx.execute(sql`select nextval('deposit_index_seq') as index`);
          const depositIndex = Number((result as { rows: { index: string | number }[] }).rows[0]?.index);
          if (!Number.isSafeInteger(depositIndex)) throw new Error('deposit index sequence returned nothing');
          deposit = { depositIndex, walletAddress: deriveDepositAddress(depositXpub, depositIndex, network) };
        }
        const [order] = await tx
          .insert(orders)
          .values({
            userId: user.id,
            type: body.type,
            ...quote.figures,
            priceSnapshotId: quote.snapshot.id,
            quoteExpiresAt: quote.quoteExpiresAt,
            paymentMethod: quote.paymentMethod,
            receivingDetails: quote.receivingDetails,
            ...deposit,
          })
          .returning();
        if (!order) throw new Error('order insert returned nothing');
        await recordOrderCreated(tx, order, `user:${user.id}`);
        return order;
      });
    },

    async update(user: UserRow, body: UpdateOrderRequest): Promise<{ order: OrderRow; message: string }> {
      const order = await ownOrder(user, body._id);

      if ('pair' in body) {
        // Re-quote a pending order the customer is confirming again.
        if (order.status !== 'pending')
          throw new AppError('CONFLICT', `This order is ${order.status}; it can no longer be changed.`);
        if (body.type !== order.type)
          throw new AppError('BAD_REQUEST', 'An order cannot change between buy and sell.');
        if (order.type === 'sell') {
          throw new AppError(
            'CONFLICT',
            'A sell order waits for your deposit; start a new sell to change it.',
          );
        }
        const { figures, snapshot, walletAddress, quoteExpiresAt } = await quoteFor(user, body);
        const [updated] = await db
          .update(orders)
          .set({ ...figures, priceSnapshotId: snapshot.id, walletAddress, quoteExpiresAt, updatedAt: now() })
          .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
          .returning();
        if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload and try again.');
        return { order: updated, message: 'Order updated with the new quote.' };
      }

      if ('payment' in body) {
        const method = body.payment.method;
        if (method === 'paypal')
          throw new AppError('BAD_REQUEST', 'Pay with PayPal through the PayPal button.');
        if (order.type !== 'buy')
          throw new AppError('BAD_REQUEST', 'Only buy orders are paid by the customer.');
        if (order.status !== 'pending')
          throw new AppError(
            'CONFLICT',
            `This order is ${order.status}; it has already been paid or closed.`,
          );
        if (order.quoteExpiresAt <= now())
          throw new AppError('GONE', 'This quote has expired. Get a new quote to continue.');
        const settings = await findGlobalSettings(db);
        const receivingDetails = receivingDetailsFor(settings, method);
        const bankTxn = body.bankTxn?.trim() || null;
        const moved = await db.transaction((tx) =>
          moveOrder(tx, {
            orderId: order.id,
            from: ['pending'],
            to: 'processing',
            actor: `user:${user.id}`,
            reason: `payment submitted by ${method}`,
            patch: {
              paymentMethod: method,
              receivingDetails,
              paymentSubmittedAt: now(),
              ...(bankTxn ? { bankTxn } : {}),
            },
          }),
        );
        await notify(moved);
        return {
          order: moved,
          message: 'Payment details recorded. Send the transfer and add its reference.',
        };
      }

      // Bank reference on a processing buy; blank text is ignored.
      const reference = body.bankTxn.trim();
      if (reference === '') return { order, message: 'Nothing to update.' };
      if (order.type !== 'buy' || order.status !== 'processing' || order.paymentMethod === 'paypal') {
        throw new AppError('CONFLICT', 'A bank reference can only be added to a buy paid by bank transfer.');
      }
      const [updated] = await db
        .update(orders)
        .set({ bankTxn: reference, updatedAt: now() })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'processing')))
        .returning();
      return { order: updated ?? order, message: 'Bank Tx Ref No. Added' };
    },

    async list(user: UserRow, limit: number | undefined): Promise<OrderRow[]> {
      const query = db
        .select()
        .from(orders)
        .where(eq(orders.userId, user.id))
        .orderBy(desc(orders.createdAt));
      return limit ? query.limit(limit) : query.limit(1_000);
    },

    /**
     * Expires pending buys whose quote lock ran out unpaid, and sells whose deposit window closed with
     * no deposit. Safe in several processes (the state machine locks each order).
     */
    async expireOverdue(): Promise<number> {
      const due = await db
        .select({ id: orders.id, type: orders.type })
        .from(orders)
        .where(and(eq(orders.status, 'pending'), lt(orders.quoteExpiresAt, now())))
        .limit(100);
      let expired = 0;
      for (const { id, type } of due) {
        try {
          const moved = await db.transaction((tx) =>
            moveOrder(tx, {
              orderId: id,
              from: ['pending'],
              to: 'expired',
              actor: 'system:expiry',
              reason:
                type === 'buy' ? 'quote expired before payment' : 'no deposit within the 20-minute window',
            }),
          );
          expired += 1;
          await notify(moved);
        } catch (error) {
          // Another process or the customer moved it first.
          if (!(error instanceof AppError)) throw error;
        }
      }
      return expired;
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

/** A copy of the company's receiving details for the chosen method, kept with the order. */
export function receivingDetailsFor(
  settings: GlobalSettingsRow,
  method: Exclude<PaymentMethod, 'paypal'>,
): Record<string, string> {
  if (method === 'zelle') {
    if (!settings.zelleActive)
      throw new AppError('BAD_REQUEST', 'Zelle is not available right now. Choose another method.');
    return { payment_address: settings.zellePaymentAddress };
  }
  if (method === 'ach') {
    if (!settings.achActive)
      throw new AppError('BAD_REQUEST', 'ACH is not available right now. Choose another method.');
    return {
      account_holder: settings.achAccountHolder,
      account_number: settings.achAccountNumber,
      routing_number: settings.achRoutingNumber,
      bank_address: settings.achBankAddress,
    };
  }
  if (!settings.wireActive)
    throw new AppError('BAD_REQUEST', 'Wire transfer is not available right now. Choose another method.');
  return {
    account_holder: settings.wireAccountHolder,
    account_number: settings.wireAccountNumber,
    swift: settings.wireSwiftCode,
    bank_address: settings.wireBankAddress,
  };
}
