/// <reference lib="dom" />
import { needsTravelRuleRecord } from '@offzero/shared/api/limits';
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type Page,
  type ViewportSize,
} from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import { quoteBuyFromUsd, quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import {
  basisPointsFromPercent,
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { latestCode } from './customers';
import { nextPhoneDigits, saveAdminToken, savedAdminToken } from './run-state';
import { waitForInteractive } from './interactive';

// Setting up state through the API, as customers' and the operator's browsers would: each browser test
// builds what it needs itself, so that it passes or fails on its own, whatever ran before it.

export const ADMIN_EMAIL = 'admin@offzero.local';
export const TESTNET_WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

export interface Api {
  context: APIRequestContext;
  csrf: string;
  /** POSTs JSON and expects 200. */
  post: (path: string, data: object, token?: string) => Promise<Record<string, unknown>>;
  /** GETs and expects 200. */
  get: <T>(path: string, token?: string) => Promise<T>;
  dispose: () => Promise<void>;
}

/** An API client of its own (cookies and security token), like another person's browser. */
export async function apiClient(baseURL: string): Promise<Api> {
  const context = await playwrightRequest.newContext({ baseURL });
  const { _csrf } = (await (await context.get('/api/csrf')).json()) as { _csrf: string };
  const auth = (token?: string): Record<string, string> =>
    token ? { Authorization: `Bearer ${token}` } : {};
  return {
    context,
    csrf: _csrf,
    post: async (path, data, token) => {
      const response = await context.post(path, { data, headers: { 'X-CSRF-Token': _csrf, ...auth(token) } });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status(), `${path}: ${String(body.message)}`).toBe(200);
      return body;
    },
    get: async <T>(path: string, token?: string) => {
      const response = await context.get(path, { headers: auth(token) });
      expect(response.status(), path).toBe(200);
      return (await response.json()) as T;
    },
    dispose: () => context.dispose(),
  };
}

export interface Customer {
  email: string;
  /** E.164, +1…; empty for a customer who has not verified a phone. */
  phone: string;
  token: string;
  userId: string;
}

/** Registers a customer through the four registration calls (codes from the demo outbox). */
export async function registerCustomer(
  api: Api,
  email: string,
  phone: string,
  referralCode?: string,
): Promise<Customer> {
  let since = Date.now() - 2000;
  await api.post('/api/verification/email/otp', { email, purpose: 'new account' });
  const verified = await api.post('/api/verification/verify/otp', {
    email,
    code: await latestCode(api.context, email, since),
    ...(referralCode ? { referralCode } : {}),
  });
  const registrationToken = verified.registrationToken as string;
  since = Date.now() - 2000;
  await api.post('/api/verification/phone/otp', { email, phone, registrationToken });
  const session = await api.post('/api/verification/verify/phone', {
    email,
    phone,
    registrationToken,
    code: await latestCode(api.context, phone, since),
  });
  return { email, phone, token: session.token as string, userId: (session.user as { _id: string })._id };
}

/**
 * Signs in an existing account with an e-mail code. The server gives one address a new code at most
 * every 10 seconds, and another test may just have asked for one (the demo admin signs in in several
 * suites): a refused send is tried again until the wait is over.
 */
export async function logIn(api: Api, email: string): Promise<Customer> {
  let since = 0;
  await expect
    .poll(
      async () => {
        since = Date.now() - 2000;
        const response = await api.context.post('/api/user/login-otp/send', {
          data: { email },
          headers: { 'X-CSRF-Token': api.csrf },
        });
        return response.status();
      },
      { message: `a login code for ${email}`, intervals: [1000], timeout: 20_000 },
    )
    .toBe(200);
  const session = await api.post('/api/user/login-otp/verify', {
    email,
    code: await latestCode(api.context, email, since),
  });
  const user = session.user as { _id: string; phoneNumber: string | null };
  return { email, phone: user.phoneNumber ?? '', token: session.token as string, userId: user._id };
}

/** The demo admin's session token: the one this run already has, or a new one by e-mail code. */
export async function adminToken(api: Api): Promise<string> {
  const saved = savedAdminToken();
  if (saved) {
    const still = await api.context.get('/api/admin/queue', {
      headers: { Authorization: `Bearer ${saved}` },
    });
    if (still.status() === 200) return saved;
  }
  const { token } = await logIn(api, ADMIN_EMAIL);
  saveAdminToken(token);
  return token;
}

export const bankAccount = {
  account_name: 'Ada Lovelace',
  account_number: '000123456789',
  bank_name: 'First Demo Bank',
  address: '1 Main St, Cheyenne, WY',
  routing_number: '021000021',
  swift: 'CHASUS33',
};

/**
 * Makes a registered customer ready to trade: KYC approved (demo helper), a testnet wallet, a bank
 * account with both a routing number and a SWIFT code, a Zelle e-mail, and a Form W-9 (needed before a
 * first sell). `wallet: false` or `w9: false` leaves that one out.
 */
export async function makeTradeReady(
  api: Api,
  customer: Customer,
  details: { zelleEmail: string; bank?: typeof bankAccount; wallet?: boolean; w9?: boolean },
): Promise<void> {
  const { userId, token } = customer;
  // Approved 4 days ago: an established customer, whom the scam shield's new-customer rules leave alone.
  const approvedAt = new Date(Date.now() - 4 * 24 * 3_600_000).toISOString();
  await api.post('/api/dev/kyc/decide', { userId, status: 'GREEN', approvedAt });
  if (details.wallet !== false) {
    await api.post('/api/user/settings/save', { userId, walletAddress: TESTNET_WALLET }, token);
  }
  await api.post('/api/user/settings/bank/save', { userId, bankAccount: details.bank ?? bankAccount }, token);
  await api.post('/api/user/settings/zelle/save', { userId, zelleEmail: details.zelleEmail }, token);
  if (details.w9 === false) return;
  await api.post(
    '/api/tax/w9',
    {
      legalName: 'Demo Customer',
      tinType: 'SSN',
      tin: '123-45-6789',
      address: { line1: '1 Main St', city: 'Cheyenne', state: 'WY', postalCode: '82001' },
      certify: true,
    },
    token,
  );
}

/** A browser context of its own, signed in with `token` (in localStorage, as after a login). */
export async function signedInPage(browser: Browser, token: string, viewport: ViewportSize): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/');
  await waitForInteractive(page);
  await page.evaluate((value) => localStorage.setItem('authToken', value), token);
  return page;
}

export async function listOrders(api: Api, customer: Customer): Promise<Order[]> {
  const answer = await api.get<{ result: { orders: Order[] } }>(
    `/api/order/list?userId=${customer.userId}`,
    customer.token,
  );
  return answer.result.orders;
}

export async function orderOf(api: Api, customer: Customer, id: string): Promise<Order> {
  const order = (await listOrders(api, customer)).find((o) => o._id === id);
  if (!order) throw new Error(`order ${id} is not in the customer's list`);
  return order;
}

interface Price {
  buyPrice: number;
  sellPrice: number;
  networkFee: number;
}
interface PublicSettings {
  order: { platform_fees: number };
  zelle: { bank_charges: number };
}

/** A pending buy exactly as the web client builds it: the served price and settings, the shared maths. */
export async function saveBuy(api: Api, customer: Customer, valueUsd: number): Promise<Order> {
  const price = await api.get<Price>('/api/price');
  const { settings } = await api.get<{ settings: PublicSettings }>('/api/admin/settings', customer.token);
  const quote = quoteBuyFromUsd({
    valueCents: usdNumberToCents(valueUsd),
    sellPriceCents: usdNumberToCents(price.sellPrice),
    feeBps: basisPointsFromPercent(settings.order.platform_fees),
    networkFeeSats: btcNumberToSats(price.networkFee),
  });
  expect(quote).not.toBeNull();
  const saved = await api.post(
    '/api/order/save',
    {
      userId: customer.userId,
      pair: 'BTC-USD',
      type: 'buy',
      amount: satsToBtcNumber(quote!.amountSats),
      value: valueUsd,
      price: price.sellPrice,
      platformFee: centsToUsdNumber(quote!.platformFeeCents),
      networkFee: centsToUsdNumber(quote!.networkFeeCents),
      expired: 900,
      walletAddress: TESTNET_WALLET,
      // From $3,000 the Travel Rule asks whose wallet it is.
      ...(needsTravelRuleRecord(usdNumberToCents(valueUsd)) ? { walletOwnership: { own: true } } : {}),
    },
    customer.token,
  );
  return saved.order as Order;
}

/**
 * Opens every payout-address confirmation link in the customer's demo mailbox, as they would from
 * the e-mail: the addresses they added or named in a buy become confirmed (usable at once in demo).
 */
export async function confirmPayoutAddresses(api: Api, customer: Customer): Promise<void> {
  const { messages } = await api.get<{ messages: { text: string }[] }>(
    `/api/dev/outbox?to=${encodeURIComponent(customer.email)}`,
  );
  const done = new Set<string>();
  for (const { text } of messages) {
    const link = /\/settings\/payout-addresses\/confirm\?id=([0-9a-f-]{36})&token=([A-Za-z0-9_-]+)/.exec(
      text,
    );
    if (!link || done.has(link[1]!)) continue;
    const response = await api.context.post(`/api/payout-addresses/${link[1]!}/confirm`, {
      data: { token: link[2]! },
      headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${customer.token}` },
    });
    // 409: confirmed already; 400: an older link of an entry whose newer link came first.
    if (response.status() === 200 || response.status() === 409) done.add(link[1]!);
  }
}

/** A buy paid by Zelle (processing) with the customer's bank reference, as the widget leaves it. */
export async function savePaidZelleBuy(
  api: Api,
  customer: Customer,
  valueUsd: number,
  bankTxn: string,
): Promise<Order> {
  const order = await saveBuy(api, customer, valueUsd);
  // Its bitcoin can be sent once the customer confirmed the new address from the e-mail.
  await confirmPayoutAddresses(api, customer);
  await api.post(
    '/api/order/update',
    {
      _id: order._id,
      payment: { method: 'zelle', amount: valueUsd, create_time: new Date().toISOString(), receiving_in: {} },
      status: 'processing',
    },
    customer.token,
  );
  await api.post('/api/order/update', { _id: order._id, bankTxn }, customer.token);
  return orderOf(api, customer, order._id);
}

/** A pending sell of `amountBtc` paid out by Zelle, built like the web client does. */
export async function saveSell(api: Api, customer: Customer, amountBtc: number): Promise<Order> {
  const price = await api.get<Price>('/api/price');
  const { settings } = await api.get<{ settings: PublicSettings }>('/api/admin/settings', customer.token);
  const quote = quoteSellFromBtc({
    amountSats: btcNumberToSats(amountBtc),
    buyPriceCents: usdNumberToCents(price.buyPrice),
    feeBps: basisPointsFromPercent(settings.order.platform_fees),
    bankChargesCents: usdNumberToCents(settings.zelle.bank_charges),
  });
  expect(quote).not.toBeNull();
  const saved = await api.post(
    '/api/order/save',
    {
      userId: customer.userId,
      pair: 'BTC-USD',
      type: 'sell',
      amount: amountBtc,
      value: centsToUsdNumber(quote!.valueCents),
      price: price.buyPrice,
      platformFee: centsToUsdNumber(quote!.platformFeeCents),
      bankFee: centsToUsdNumber(quote!.bankFeeCents),
      networkFee: 0,
      expired: 1200,
      walletAddress: '',
      bankAccount: { method: 'zelle' },
      ...(needsTravelRuleRecord(quote!.valueCents) ? { walletOwnership: { own: true } } : {}),
    },
    customer.token,
  );
  return saved.order as Order;
}

/** Pays a sell's deposit address on the simulated chain and waits until the order sees it. */
export async function payDeposit(api: Api, customer: Customer, order: Order): Promise<string> {
  const deposit = order.walletAddress as { address: string; amount: number };
  const sent = await api.post('/api/dev/chain/send', { address: deposit.address, amount: deposit.amount });
  await expect
    .poll(async () => (await orderOf(api, customer, order._id)).status, { timeout: 20_000 })
    .toBe('processing');
  return sent.txid as string;
}

/** Mines a block on the simulated chain and waits until the sell counts a confirmation. */
export async function confirmDeposit(api: Api, customer: Customer, order: Order): Promise<void> {
  await api.post('/api/dev/chain/mine', { blocks: 1 });
  await expect
    .poll(async () => (await orderOf(api, customer, order._id)).confirmations, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(1);
}

/**
 * A new customer who may trade (registered, then `makeTradeReady`), set up through an API client of
 * its own so that each test trades as someone no other test touches.
 */
export async function tradeReadyCustomer(
  baseURL: string,
  details: { email: string; zelleEmail: string },
): Promise<Customer> {
  const api = await apiClient(baseURL);
  const customer = await registerCustomer(api, details.email, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, customer, { zelleEmail: details.zelleEmail });
  await api.dispose();
  return customer;
}

/** Signs `page` in as the customer (their token in localStorage, as after a login). */
export async function signInAs(page: Page, customer: Customer): Promise<void> {
  await page.goto('/');
  await waitForInteractive(page);
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
}

/** A browser context of its own with the demo admin signed in, on the work queue. */
export async function adminConsole(browser: Browser, api: Api, viewport: ViewportSize): Promise<Page> {
  const admin = await signedInPage(browser, await adminToken(api), viewport);
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { level: 1, name: 'Work queue' })).toBeVisible();
  return admin;
}
