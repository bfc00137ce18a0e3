import type { OrderOrigin, SaveOrderRequest } from '@offzero/shared/api/orders';
import type { GlobalSettingsRow, OrderRow, UserRow } from '../../db/schema';
import { insertOrderCreated } from '../order-save.repository';
import { findTwinAndWindowUse } from '../order-twins.repository';
import { assertUseWithinTradingLimits } from '../../limits/limits.service';
import { windowStarts } from '../../limits/trading-limits';
import { linkBuyPayoutAddress } from './link-payout-address';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, lockPricedOrder, priceOrder } from '../pricing/price-order';
import { buyWalletAddress } from '../pricing/client-figures';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';
import { checkPlaceForMoneyRoute, recordingShieldRefusals } from '../../places/place-check';
import { checkBuyShield, recordBuyShield } from '../../scam-shield/buy-shield';
import { stopWhenSomeoneAsked } from '../../scam-shield/scam-answer';
import { readLightningDestination } from '../../rails/lightning/lightning-destination';
import { PAYOUT_MESSAGES } from '../../rails/lightning/use-cases/pay-out-by-lightning';
import { AppError } from '../../http/errors';

/** The buy's Lightning destination as it will be paid, checked; null for a bitcoin address. */
function lightningDestination(
  body: SaveOrderRequest,
  priced: { figures: { amountSats: bigint }; settings: GlobalSettingsRow },
  deps: Pick<OrderDeps, 'network' | 'now'>,
): string | null {
  const typed = body.walletAddress?.trim() ?? '';
  if (buyWalletAddress(body) !== null || typed === '' || body.payoutAddressId !== undefined) return null;
  const { amountSats } = priced.figures;
  if (!priced.settings.lightningActive) throw new AppError('BAD_REQUEST', PAYOUT_MESSAGES.off);
  if (amountSats > priced.settings.lightningMaxPayoutSats) {
    throw new AppError('BAD_REQUEST', PAYOUT_MESSAGES.overOrderCap(priced.settings.lightningMaxPayoutSats));
  }
  const destination = readLightningDestination(typed, { amountSats, network: deps.network, now: deps.now() });
  return destination.kind === 'invoice' ? destination.invoice : destination.address;
}

/**
 * A new pending buy at the server's figures (or its locked quote's), paid out later to the customer's
 * own address, an entry of their payout address book (a new address joins it unconfirmed, and the
 * payout waits). It is priced under the customer's lock (orders/pricing/price-order.ts). The same buy saved
 * again within 10 seconds (a double click) answers the first order (docs/design.md). The customer's place
 * and the scam shield are checked under the same lock (docs/design.md, "Places and the scam shield"):
 * a closed place or an unanswered first-buy question saves nothing, and the order keeps the rules
 * version it was checked against and when its payout may start.
 */
export async function saveBuyOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'notify' | 'payoutAddresses' | 'bank'>,
  user: UserRow,
  body: SaveOrderRequest,
  origin?: OrderOrigin,
): Promise<OrderRow> {
  await stopWhenSomeoneAsked(deps, user.id, body.scamCheck, {
    valueUsd: body.value,
    walletAddress: body.walletAddress ?? null,
  });
  return recordingShieldRefusals(deps.db, user.id, 'order-save', () =>
    saveCheckedBuy(deps, user, body, origin),
  );
}

async function saveCheckedBuy(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'notify' | 'payoutAddresses' | 'bank'>,
  user: UserRow,
  body: SaveOrderRequest,
  origin: OrderOrigin | undefined,
): Promise<OrderRow> {
  // A closed place is told so before anything about amounts; checked again under the lock.
  await checkPlaceForMoneyRoute(deps.db, { userId: user.id, side: 'buy', route: 'order-save' });
  const pricing = await priceOrder(deps, 'buy', user, body);
  const saved = await deps.db.transaction(async (tx) => {
    const { tier, priced } = await lockPricedOrder(deps, tx, user, body, pricing);
    const place = await checkPlaceForMoneyRoute(tx, {
      userId: user.id,
      side: 'buy',
      route: 'order-save',
      valueCents: priced.figures.valueCents,
    });
    const { twin, used, payoutEntryId } = await findTwinAndWindowUse(
      tx,
      {
        userId: user.id,
        type: 'buy',
        amountSats: priced.figures.amountSats,
        valueCents: priced.figures.valueCents,
        walletAddress: priced.walletAddress,
        paymentMethod: null,
      },
      windowStarts(deps.now()),
      priced.walletAddress,
    );
    if (twin) return twin;
    // Compliance, after every other check: counted under the customer's lock, so two saves at once
    // cannot both fit into what is left of a limit.
    assertUseWithinTradingLimits({
      settings: priced.settings,
      tier,
      used,
      valueCents: priced.figures.valueCents,
    });
    const walletOwnership = travelRuleAnswer(priced.figures.valueCents, body.walletOwnership);
    // A Lightning invoice is a one-time destination outside the address book (docs/design.md,
    // "Lightning"): checked here against the order's satoshis, network and clock.
    const lightning = lightningDestination(body, priced, deps);
    const payout = lightning
      ? { walletAddress: lightning, payoutAddressId: null }
      : await linkBuyPayoutAddress(deps, tx, user.id, {
          payoutAddressId: body.payoutAddressId,
          walletAddress: priced.walletAddress,
          addressScreened: priced.addressScreened,
          knownEntryId: payoutEntryId,
        });
    const shield = await checkBuyShield(tx, {
      userId: user.id,
      settings: priced.settings,
      place,
      valueCents: priced.figures.valueCents,
      scamCheck: body.scamCheck,
      walletAddress: payout.walletAddress,
      payoutAddressId: payout.payoutAddressId,
      now: deps.now(),
    });
    const order = await insertOrderCreated(
      tx,
      {
        userId: user.id,
        type: 'buy',
        ...priced.figures,
        priceSnapshotId: priced.snapshot.id,
        quoteExpiresAt: priced.quoteExpiresAt,
        walletAddress: payout.walletAddress,
        payoutAddressId: payout.payoutAddressId,
        depositIndex: null,
        paymentMethod: null,
        receivingDetails: null,
        jurisdictionVersion: place.version,
        jurisdictionCode: place.code,
        coolingUntil: shield.coolingUntil,
        scamCheck: shield.scamCheck,
        origin,
      },
      `user:${user.id}`,
    );
    await recordBuyShield(tx, { userId: user.id, orderId: order.id, route: 'order-save', shield });
    await claimOrderQuote(tx, priced, order.id, deps.now());
    if (walletOwnership) await keepTravelRuleRecord(tx, { order, user, answer: walletOwnership });
    return order;
  });
  // A new address's confirmation e-mail went into the outbox with the order: deliver it now.
  await deps.notify(saved);
  return saved;
}
