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

export const TEST_WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
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
export async function placeBuyOrder(t: TestApp, who: RegisteredCustomer, valueUsd: number): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    payload: await buyOrderPayload(t, who, valueUsd),
  });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return response.json<{ order: { _id: string } }>().order._id;
}
