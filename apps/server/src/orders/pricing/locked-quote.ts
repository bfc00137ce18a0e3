import { BUY_CHECK_MESSAGES, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { QUOTE_MESSAGES } from '@offzero/shared/api/quotes';
import { bitcoinAddressProblem } from '@offzero/shared/bitcoin/address';
import { addressRefusal } from '@offzero/shared/bitcoin/address-field';
import type { Transaction } from '../../db/database';
import type { QuoteRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { readGlobalSettings } from '../../settings/global-settings-cache';
import { DOUBLE_SUBMIT_WINDOW_SECONDS } from '../order.repository';
import { claimQuote, findCustomerQuote } from '../quote.repository';
import { assertCustomerMayTrade, assertMayTrade, assertWithinLimits } from '../use-cases/assert-may-trade';
import { chooseSellPayout } from '../use-cases/choose-sell-payout';
import { buyWalletAddress, parseClientFigures } from './client-figures';
import {
  DEPOSIT_WINDOW_MS,
  type Figures,
  type PricedBuy,
  type PricedSell,
  type PricingDeps,
} from './priced-order';

type QuotePricingDeps = Pick<PricingDeps, 'db' | 'network' | 'now' | 'bank'>;

/**
 * An order saved against a locked quote (docs/design.md): the quote must be the customer's own
 * (another's id answers 404, as a missing one), not used, not expired, of the same kind, and the
 * order's figures must be exactly the quote's. The customer checks run again (a verification may have
 * been withdrawn meanwhile); the price does not: the quote holds it.
 */
export async function priceBuyFromQuote(
  deps: QuotePricingDeps,
  user: UserRow,
  body: SaveOrderRequest & { quoteId: string },
): Promise<PricedBuy> {
  const quote = await usableQuote(deps, user, body);
  const settings = await readGlobalSettings(deps.db);
  await assertMayTrade(deps.db, user, settings, quote.valueCents, 'buy');
  // A Lightning destination is checked by the Lightning rail when the buy is saved; with an
  // address-book entry named and no address, the entry decides (an xpub's fresh address).
  const walletAddress = buyWalletAddress(body);
  const addressProblem = walletAddress === null ? null : bitcoinAddressProblem(walletAddress, deps.network);
  if (addressProblem !== null) {
    throw new AppError('BAD_REQUEST', addressRefusal(BUY_CHECK_MESSAGES.invalidAddress, addressProblem), {
      walletAddress: addressProblem,
    });
  }
  // The order's quote lock is the quote's own: the countdown the customer saw is the one that counts.
  return {
    figures: figuresOf(quote),
    settings,
    snapshot: { id: quote.priceSnapshotId },
    quoteId: quote.id,
    walletAddress,
    addressScreened: false,
    quoteExpiresAt: quote.expiresAt,
  };
}

export async function priceSellFromQuote(
  deps: QuotePricingDeps,
  user: UserRow,
  body: SaveOrderRequest & { quoteId: string },
): Promise<PricedSell> {
  const quote = await usableQuote(deps, user, body);
  const settings = await readGlobalSettings(deps.db);
  await assertCustomerMayTrade(deps.db, user, 'sell');
  assertWithinLimits(settings, quote.valueCents);
  if (body.bankAccount?.method !== quote.paymentMethod) {
    throw new AppError('BAD_REQUEST', QUOTE_MESSAGES.methodDiffers);
  }
  // The customer's current details for the quoted method (the charges are the quote's).
  const payout = await chooseSellPayout(
    deps,
    user,
    settings,
    quote.paymentMethod ?? undefined,
    quote.valueCents,
  );
  return {
    figures: figuresOf(quote),
    settings,
    snapshot: { id: quote.priceSnapshotId },
    quoteId: quote.id,
    paymentMethod: payout.method,
    receivingDetails: payout.details,
    quoteExpiresAt: new Date(deps.now().getTime() + DEPOSIT_WINDOW_MS),
  };
}

/**
 * The quote named by the order, checked in the order a customer can act on: it exists for them, is
 * of this kind, has not been used, has not run out, and the figures sent are exactly its own. A quote
 * used in the last 10 seconds passes here, so that a double submission finds the order it made
 * (docs/design.md); any other order is refused when it tries to claim the quote.
 */
async function usableQuote(
  deps: QuotePricingDeps,
  user: UserRow,
  body: SaveOrderRequest & { quoteId: string },
): Promise<QuoteRow> {
  const quote = isUuid(body.quoteId) ? await findCustomerQuote(deps.db, user.id, body.quoteId) : undefined;
  if (!quote) throw new AppError('NOT_FOUND', QUOTE_MESSAGES.notFound);
  if (quote.type !== body.type) throw new AppError('BAD_REQUEST', QUOTE_MESSAGES.typeDiffers);
  const now = deps.now().getTime();
  const justUsed = quote.usedAt && now - quote.usedAt.getTime() < DOUBLE_SUBMIT_WINDOW_SECONDS * 1000;
  if (quote.usedAt && !justUsed) throw new AppError('CONFLICT', QUOTE_MESSAGES.used);
  if (quote.expiresAt.getTime() <= now) throw new AppError('QUOTE_EXPIRED', QUOTE_MESSAGES.expired);
  if (!sameFigures(parseClientFigures(body), figuresOf(quote), body.type)) {
    throw new AppError('BAD_REQUEST', QUOTE_MESSAGES.figuresDiffer);
  }
  return quote;
}

function figuresOf(quote: QuoteRow): Figures {
  return {
    amountSats: quote.amountSats,
    valueCents: quote.valueCents,
    priceCents: quote.priceCents,
    platformFeeCents: quote.platformFeeCents,
    networkFeeCents: quote.networkFeeCents,
    bankFeeCents: quote.bankFeeCents,
  };
}

/** Exactly equal: the client sends back the figures it was given, so there is nothing to round. */
function sameFigures(client: Figures, quoted: Figures, type: 'buy' | 'sell'): boolean {
  return (
    client.amountSats === quoted.amountSats &&
    client.valueCents === quoted.valueCents &&
    client.priceCents === quoted.priceCents &&
    client.platformFeeCents === quoted.platformFeeCents &&
    (type === 'buy'
      ? client.networkFeeCents === quoted.networkFeeCents
      : client.bankFeeCents === quoted.bankFeeCents)
  );
}

/**
 * Claims the order's locked quote in the transaction that saves the order, so the quote serves one
 * order only; a quote another save claimed first rolls this one back (409).
 */
export async function claimOrderQuote(
  tx: Transaction,
  priced: { quoteId?: string | undefined },
  orderId: string,
  at: Date,
): Promise<void> {
  if (!priced.quoteId) return;
  if (!(await claimQuote(tx, priced.quoteId, orderId, at)))
    throw new AppError('CONFLICT', QUOTE_MESSAGES.used);
}
