import { btcNumberToSats, centsToUsdNumber, usdNumberToCents } from '@offzero/shared/money/money';
import { quoteSellFromBtc, type SellQuote } from '@offzero/shared/quotes/quote';
import { TRAVEL_RULE_THRESHOLD_CENTS } from '@offzero/shared/api/limits';
import type { RegisteredCustomer } from './accounts-helpers';
import type { TestApp } from './test-app';

/** The demo settings: a 1.5 % platform fee; bank charges Zelle $0, ACH $1, wire $25, instant $0.50. */
export const DEMO_FEE_BPS = 150;
export const DEMO_BANK_CHARGES_CENTS = { zelle: 0n, ach: 100n, wire: 2_500n, instant: 50n } as const;
export type SellMethod = keyof typeof DEMO_BANK_CHARGES_CENTS;

/** A bank account with both a routing number (ACH) and a SWIFT code (wire). */
export const TEST_BANK = {
  account_name: 'Ada Lovelace',
  account_number: '000111222333',
  bank_name: 'First Analytical Bank',
  address: '12 Engine Row, Cheyenne, WY',
  routing_number: '021000021',
  swift: 'FANBUS33',
};

async function expectOk(response: Awaited<ReturnType<TestApp['request']>>) {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return response;
}

export async function saveBank(
  t: TestApp,
  who: RegisteredCustomer,
  bankAccount: Record<string, string> = TEST_BANK,
): Promise<void> {
  await expectOk(
    await t.request({
      method: 'POST',
      url: '/api/user/settings/bank/save',
      headers: who.auth,
      payload: { userId: who.userId, bankAccount },
    }),
  );
}

export async function saveZelle(t: TestApp, who: RegisteredCustomer, zelleEmail: string): Promise<void> {
  await expectOk(
    await t.request({
      method: 'POST',
      url: '/api/user/settings/zelle/save',
      headers: who.auth,
      payload: { userId: who.userId, zelleEmail },
    }),
  );
}

export async function currentPrice(t: TestApp): Promise<{ sellPrice: number; buyPrice: number }> {
  const response = await t.app.inject({ method: 'GET', url: '/api/price' });
  if (response.statusCode !== 200) throw new Error(`price: ${response.statusCode} ${response.body}`);
  return response.json();
}

/**
 * Builds a sell order exactly as the client does: the customer sends `amountBtc` and sells at the
 * served `buyPrice`, less the platform fee and the chosen method's bank charges (the shared maths).
 */
export async function sellOrder(
  t: TestApp,
  who: RegisteredCustomer,
  amountBtc: number,
  method: SellMethod = 'zelle',
  overrides: Record<string, unknown> = {},
): Promise<{ payload: Record<string, unknown> & { value: number; price: number }; quote: SellQuote }> {
  const price = await currentPrice(t);
  const quote = quoteSellFromBtc({
    amountSats: btcNumberToSats(amountBtc),
    buyPriceCents: usdNumberToCents(price.buyPrice),
    feeBps: DEMO_FEE_BPS,
    bankChargesCents: DEMO_BANK_CHARGES_CENTS[method],
  });
  if (!quote) throw new Error(`no sell quote for ${amountBtc} BTC`);
  return {
    payload: {
      userId: who.userId,
      pair: 'BTC-USD',
      type: 'sell',
      amount: amountBtc,
      value: centsToUsdNumber(quote.valueCents),
      price: price.buyPrice,
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      bankFee: centsToUsdNumber(quote.bankFeeCents),
      networkFee: 0,
      expired: 1200,
      walletAddress: '',
      bankAccount: { method },
      // From $3,000 the Travel Rule asks whose wallet it is; a test may answer otherwise in `overrides`.
      ...(quote.valueCents >= TRAVEL_RULE_THRESHOLD_CENTS ? { walletOwnership: { own: true } } : {}),
      ...overrides,
    },
    quote,
  };
}

/** A valid W-9 (Form W-9 is required before a first sell, docs/design.md). */
export const TEST_W9 = {
  legalName: 'Ada Lovelace',
  tinType: 'SSN',
  tin: '123-45-6789',
  address: { line1: '12 Engine Row', city: 'Cheyenne', state: 'WY', postalCode: '82001' },
  certify: true,
} as const;

/** Files the customer's W-9, as the sell flow asks before a first sell. */
export async function fileW9(
  t: TestApp,
  who: RegisteredCustomer,
  w9: Record<string, unknown> = TEST_W9,
): Promise<void> {
  await expectOk(await t.request({ method: 'POST', url: '/api/tax/w9', headers: who.auth, payload: w9 }));
}
