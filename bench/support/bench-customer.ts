/**
 * The API benchmark's customers: signed in through the calls a browser makes, and the bodies of the
 * buys they save.
 */
import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import { settingsUpdateSchema } from '@offzero/shared/api/admin-settings';
import { callApi, demoClient, registerDemoCustomer, type DemoCustomer } from './demo-customer';

const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
const ADMIN_EMAIL = 'admin@offzero.local';

/**
 * A customer of the product signed in through the calls a browser makes; the first one (`index` 0) also
 * has the demo admin lift the trading limits. A phone number is verified on one account only: a
 * database that outlives the run (the seeded one) needs a new one each run.
 */
export async function signInCustomer(
  base: string,
  index = 0,
  phone = `+1202555${String(100 + index).padStart(4, '0')}`,
): Promise<DemoCustomer> {
  const client = await demoClient(base);
  if (index === 0) {
    // The demo admin lifts the trading limits: thousands of saves would pass a real customer's.
    await client.call('POST', '/api/user/login-otp/send', { email: ADMIN_EMAIL }, client.csrfHeaders);
    const admin = await client.call<{ token: string }>(
      'POST',
      '/api/user/login-otp/verify',
      { email: ADMIN_EMAIL, code: await client.codeFor(ADMIN_EMAIL) },
      client.csrfHeaders,
    );
    const adminAuth = { authorization: `Bearer ${admin.token}` };
    const { settings } = await callApi<{ settings: Record<string, unknown> }>(
      base,
      'GET',
      '/api/admin/settings',
      undefined,
      adminAuth,
    );
    const huge = { day: 1_000_000_000, week: 1_000_000_000, month: 1_000_000_000 };
    const update = pickShape(settingsUpdateSchema, { ...settings, limits: { tier1: huge, tier2: huge } });
    await callApi(base, 'PUT', '/api/admin/settings', update as object, {
      ...client.csrfHeaders,
      ...adminAuth,
    });
  }
  return registerDemoCustomer(client, {
    email: `bench-${Date.now()}-${index}@example.com`,
    phone,
  });
}

/** Only the keys a zod object schema names, at every depth (the settings answer has more). */
function pickShape(schema: unknown, value: unknown): unknown {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const inner = (schema as { unwrap?: () => unknown }).unwrap;
  if (!shape && inner) return pickShape(inner.call(schema), value);
  if (!shape || value === null || typeof value !== 'object') return value;
  const picked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) picked[key] = pickShape(field, item);
  }
  return picked;
}

/** Save bodies, each of a different value (the same buy within 10 s would answer the first order). */
export async function buyBodies(base: string, userId: string): Promise<() => string> {
  const price = await callApi<{ sellPrice: number; networkFee: number }>(base, 'GET', '/api/price');
  let next = 0;
  return () => {
    next += 1;
    const valueCents = usdNumberToCents(100) + BigInt(next % 900_000);
    const quote = quoteBuyFromUsd({
      valueCents: valueCents,
      sellPriceCents: usdNumberToCents(price.sellPrice),
      feeBps: 150,
      networkFeeSats: btcNumberToSats(price.networkFee),
    })!;
    return JSON.stringify({
      userId,
      pair: 'BTC-USD',
      type: 'buy',
      amount: satsToBtcNumber(quote.amountSats),
      value: centsToUsdNumber(valueCents),
      price: price.sellPrice,
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      walletAddress: WALLET,
    });
  };
}
