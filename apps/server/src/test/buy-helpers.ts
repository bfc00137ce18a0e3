import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import { TRAVEL_RULE_THRESHOLD_CENTS } from '@offzero/shared/api/limits';
import type { RegisteredCustomer } from './accounts-helpers';
import type { TestApp } from './test-app';
import { TEST_WALLET } from './new-buy-order-row';

export { TEST_WALLET };

const DEMO_FEE_BPS = 150;

/** Builds a buy order exactly as the client does: from the served price and the shared maths. */
export async function buyOrderPayload(
  t: TestApp,
  who: RegisteredCustomer,
  valueUsd: number,
  overrides: Record<string, unknown> = {},
) {
  const price = (await t.app.inject({ method: 'GET', url: '/api/price' })).json<{
    sellPrice: number;
    networkFee: number;
  }>();
  const quote = quoteBuyFromUsd({
    valueCents: usdNumberToCents(valueUsd),
    sellPriceCents: usdNumberToCents(price.sellPrice),
    feeBps: DEMO_FEE_BPS,
    networkFeeSats: btcNumberToSats(price.networkFee),
  });
  return {
    userId: who.userId,
    pair: 'BTC-USD',
    type: 'buy',
    amount: quote ? satsToBtcNumber(quote.amountSats) : 0,
    value: valueUsd,
    price: price.sellPrice,
    platformFee: quote ? centsToUsdNumber(quote.platformFeeCents) : 0,
    networkFee: quote ? centsToUsdNumber(quote.networkFeeCents) : 0,
    expired: 900,
    walletAddress: TEST_WALLET,
    // From $3,000 the Travel Rule asks whose wallet it is; a test may answer otherwise in `overrides`.
    ...(usdNumberToCents(valueUsd) >= TRAVEL_RULE_THRESHOLD_CENTS ? { walletOwnership: { own: true } } : {}),
    ...overrides,
  };
}

/** Saves a pending buy and returns its id. */
export async function placeBuyOrder(
  t: TestApp,
  who: RegisteredCustomer,
  valueUsd: number,
  walletAddress = TEST_WALLET,
): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    payload: await buyOrderPayload(t, who, valueUsd, { walletAddress }),
  });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return response.json<{ order: { _id: string } }>().order._id;
}

/** The confirmation links of the address book in the customer's demo mailbox, newest first. */
export async function payoutAddressLinks(
  t: TestApp,
  who: RegisteredCustomer,
): Promise<{ id: string; token: string }[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/dev/outbox?to=${encodeURIComponent(who.email)}`,
  });
  const links: { id: string; token: string }[] = [];
  for (const { text } of response.json<{ messages: { text: string }[] }>().messages) {
    const match = /\/settings\/payout-addresses\/confirm\?id=([0-9a-f-]{36})&token=([A-Za-z0-9_-]+)/.exec(
      text,
    );
    if (match) links.push({ id: match[1]!, token: match[2]! });
  }
  return links;
}

/**
 * Opens every payout-address confirmation link in the customer's mailbox, as they would: afterwards
 * each address they added (or named in a buy) is confirmed, and usable at once in demo mode.
 */
export async function confirmPayoutAddresses(t: TestApp, who: RegisteredCustomer): Promise<void> {
  const done = new Set<string>();
  for (const link of await payoutAddressLinks(t, who)) {
    if (done.has(link.id)) continue;
    const response = await t.request({
      method: 'POST',
      url: `/api/payout-addresses/${link.id}/confirm`,
      headers: who.auth,
      payload: { token: link.token },
    });
    // 409: confirmed already; 400: an older link of an entry whose newer link comes first.
    if (response.statusCode === 200 || response.statusCode === 409) done.add(link.id);
  }
}

/** Saves a pending buy to a confirmed (usable) address and returns its id. */
export async function placeConfirmedBuyOrder(
  t: TestApp,
  who: RegisteredCustomer,
  valueUsd: number,
): Promise<string> {
  const orderId = await placeBuyOrder(t, who, valueUsd);
  await confirmPayoutAddresses(t, who);
  return orderId;
}
