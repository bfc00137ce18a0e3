// The scale test's customers: registered and signed in through nginx with the codes the demo outbox
// holds, made established and ready to trade, their orders read back as the web app reads them.
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from './harness.mjs';
import { get, getOk, post } from './http.mjs';

/**
 * Opens the payout-address confirmation link e-mailed to the customer, as they would: a buy's new
 * address is paid only once confirmed (usable at once in demo).
 */
export async function confirmPayoutAddress(customer) {
  const link = await waitFor(10_000, async () => {
    const { messages } = await getOk(`/api/dev/outbox?to=${encodeURIComponent(customer.email)}`);
    for (const { text } of messages) {
      const found = /\/settings\/payout-addresses\/confirm\?id=([0-9a-f-]{36})&token=([A-Za-z0-9_-]+)/.exec(
        text ?? '',
      );
      if (found) return found;
    }
    return undefined;
  });
  if (!link) throw new Error(`no payout-address confirmation link reached ${customer.email}`);
  await post(`/api/payout-addresses/${link[1]}/confirm`, { token: link[2] }, customer.token);
}

/** Reads the newest code sent to `to` in the demo outbox. */
async function latestCode(to, notBefore) {
  const code = await waitFor(10_000, async () => {
    const { messages } = await getOk(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
    return messages.find((m) => m.code && Date.parse(m.createdAt) >= notBefore)?.code;
  });
  if (!code) throw new Error(`no code reached ${to}`);
  return code;
}

export async function register(email, phone) {
  let since = Date.now() - 2000;
  await post('/api/verification/email/otp', { email, purpose: 'new account' });
  const verified = await post('/api/verification/verify/otp', {
    email,
    code: await latestCode(email, since),
  });
  since = Date.now() - 2000;
  const { registrationToken } = verified;
  await post('/api/verification/phone/otp', { email, phone, registrationToken });
  const session = await post('/api/verification/verify/phone', {
    email,
    phone,
    registrationToken,
    code: await latestCode(phone, since),
  });
  return { email, phone, token: session.token, userId: session.user._id };
}

export async function logIn(email) {
  const since = Date.now() - 2000;
  await post('/api/user/login-otp/send', { email });
  const session = await post('/api/user/login-otp/verify', { email, code: await latestCode(email, since) });
  return session.token;
}

export const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
export async function makeTradeReady(customer, zelleEmail, bank = {}) {
  const { userId, token } = customer;
  // Approved four days ago: established customers, past the scam shield's first-buy question.
  await post('/api/dev/kyc/decide', {
    userId,
    status: 'GREEN',
    approvedAt: new Date(Date.now() - 4 * 24 * 3_600_000).toISOString(),
  });
  await post('/api/user/settings/save', { userId, walletAddress: WALLET }, token);
  await post(
    '/api/user/settings/bank/save',
    {
      userId,
      bankAccount: {
        account_name: 'Ada Lovelace',
        account_number: '000123456789',
        bank_name: 'First Demo Bank',
        address: '1 Main St, Cheyenne, WY',
        routing_number: '021000021',
        swift: 'CHASUS33',
        ...bank,
      },
    },
    token,
  );
  await post('/api/user/settings/zelle/save', { userId, zelleEmail }, token);
}

export async function orderOf(customer, id) {
  const { result } = await getOk(`/api/order/list?userId=${customer.userId}`, customer.token);
  return result.orders.find((order) => order._id === id);
}

// --- Background traffic: the retrying client, all the time ---

export function backgroundReader(customers) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await get('/api/app-config');
      for (const customer of customers())
        await get(`/api/order/list?userId=${customer.userId}`, customer.token);
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/**
 * Places a buy of `usd` dollars at the current price, its amounts and fees computed with the shared
 * quote maths as the web app does; `fields` adds to or overrides the order (a destination, a method).
 */
export async function placeBuy({ maths, settings }, customer, usd, fields = {}) {
  const price = await getOk('/api/price');
  const quote = maths.quoteBuyFromUsd({
    valueCents: maths.usdNumberToCents(usd),
    sellPriceCents: maths.usdNumberToCents(price.sellPrice),
    feeBps: maths.basisPointsFromPercent(settings.order.platform_fees),
    networkFeeSats: maths.btcNumberToSats(price.networkFee),
  });
  const { order } = await post(
    '/api/order/save',
    {
      userId: customer.userId,
      pair: 'BTC-USD',
      type: 'buy',
      amount: maths.satsToBtcNumber(quote.amountSats),
      value: usd,
      price: price.sellPrice,
      platformFee: maths.centsToUsdNumber(quote.platformFeeCents),
      networkFee: maths.centsToUsdNumber(quote.networkFeeCents),
      expired: 900,
      walletAddress: WALLET,
      ...fields,
    },
    customer.token,
  );
  return order;
}

/** Files the seller's Form W-9, which a first sell needs on file. */
export async function fileW9(seller, legalName = 'Scale Seller') {
  await post(
    '/api/tax/w9',
    {
      legalName,
      tinType: 'SSN',
      tin: '123-45-6789',
      address: { line1: '1 Load Street', city: 'Cheyenne', state: 'WY', postalCode: '82001' },
      certify: true,
    },
    seller.token,
  );
}

/**
 * Places a sell of `btc` bitcoin, paid out by `method` (a settings group: zelle, ach, wire, instant),
 * its value less the platform fee and that method's bank charges, computed with the shared maths.
 */
export async function placeSell({ maths, settings }, seller, btc, method = 'zelle') {
  const price = await getOk('/api/price');
  const quote = maths.quoteSellFromBtc({
    amountSats: maths.btcNumberToSats(btc),
    buyPriceCents: maths.usdNumberToCents(price.buyPrice),
    feeBps: maths.basisPointsFromPercent(settings.order.platform_fees),
    bankChargesCents: maths.usdNumberToCents(settings[method].bank_charges),
  });
  const { order } = await post(
    '/api/order/save',
    {
      userId: seller.userId,
      pair: 'BTC-USD',
      type: 'sell',
      amount: btc,
      value: maths.centsToUsdNumber(quote.valueCents),
      price: price.buyPrice,
      platformFee: maths.centsToUsdNumber(quote.platformFeeCents),
      bankFee: maths.centsToUsdNumber(quote.bankFeeCents),
      networkFee: 0,
      expired: 1200,
      walletAddress: '',
      bankAccount: { method },
    },
    seller.token,
  );
  return order;
}

/** 202-555-01xx style numbers: valid, never anyone's; one run's customers never share one. */
let nextPhone = Math.floor(Math.random() * 9_000);
export const phoneNumber = () => `+1202555${String((nextPhone += 1) % 10_000).padStart(4, '0')}`;

/**
 * A customer registered through nginx, approved days ago (past the scam shield's first-buy question),
 * with a wallet, a bank account (`bank` overrides its fields), Zelle and a profile name, and a W-9.
 */
export async function establishedCustomer(label, bank = {}) {
  const stamp = `${Date.now().toString(36)}${nextPhone}`;
  const customer = await register(`scale-${label}-${stamp}@example.com`, phoneNumber());
  await makeTradeReady(customer, `${label}-${stamp}@example.com`, bank);
  await post('/api/user/profile', { firstName: 'Ada', lastName: 'Lovelace' }, customer.token);
  await fileW9(customer, 'Ada Lovelace');
  return customer;
}

/** Says a buy was paid by Zelle, as its customer does ("I have paid", with the Zelle reference). */
export async function claimPaidByZelle(customer, order, reference) {
  await post(
    '/api/order/update',
    {
      _id: order._id,
      payment: {
        method: 'zelle',
        amount: order.value,
        create_time: new Date().toISOString(),
        receiving_in: {},
      },
      status: 'processing',
    },
    customer.token,
  );
  await post('/api/order/update', { _id: order._id, bankTxn: reference }, customer.token);
}
