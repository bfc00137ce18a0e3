import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import { centsToUsdNumber, satsToBtcNumber, usdNumberToCents } from '@offzero/shared/money/money';
import { quoteSellFromUsd, sellDeadEndMessage, smallestSellSats } from '@offzero/shared/quotes/quote';
import { deriveDepositAddress, DEMO_ACCOUNT_VPUB } from '../rails/onchain/deposit-address';
import { globalSettings, orderEvents, orders } from '../db/schema';
import {
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import {
  currentPrice,
  DEMO_BANK_CHARGES_CENTS as BANK_CHARGES_CENTS,
  DEMO_FEE_BPS,
  fileW9 as fileW9For,
  saveBank as saveBankFor,
  saveZelle as saveZelleFor,
  sellOrder as sellOrderFor,
  TEST_BANK,
  type SellMethod,
} from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { forgetCachedSessions } from '../auth/sessions';
import { forgetCachedGlobalSettings } from '../settings/global-settings-cache';

const PRICE_CHANGED = 'The price has changed. Review the new quote and confirm again.';
const ADA_BANK = TEST_BANK;

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  // The watcher is driven by the deposit tests; here it must not run on its own.
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.sell@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.sell@example.com');
  await saveBank(ada, ADA_BANK);
  await saveZelle(ada, 'ada.zelle@example.com');
  await saveBank(bob, { ...ADA_BANK, account_name: 'Bob Babbage', account_number: '999888777' });
  await fileW9(ada);
  await fileW9(bob);
});
afterAll(async () => t.close());

const saveBank = (who: RegisteredCustomer, bank: Record<string, string>) => saveBankFor(t, who, bank);
const saveZelle = (who: RegisteredCustomer, email: string) => saveZelleFor(t, who, email);
const fileW9 = (who: RegisteredCustomer) => fileW9For(t, who);
const sellOrder = (
  who: RegisteredCustomer,
  amountBtc: number,
  method: SellMethod = 'zelle',
  overrides: Record<string, unknown> = {},
) => sellOrderFor(t, who, amountBtc, method, overrides);

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });

async function orderRow(id: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`order ${id} not found`);
  return row;
}

describe('sell orders: saving', () => {
  it('issues a fresh testnet deposit address and keeps figures equal to the shared maths', async () => {
    for (const method of ['zelle', 'ach', 'wire'] as const) {
      const { payload, quote } = await sellOrder(ada, 0.0123, method);
      const response = await save(ada, payload);
      expect(response.statusCode, `${method}: ${response.body}`).toBe(200);
      const { order, message } = response.json();
      expect(message).toMatch(/^Order #[0-9a-f]{8} has been created\.$/);
      expect(order).toMatchObject({
        type: 'sell',
        pair: 'BTC-USD',
        status: 'pending',
        amount: 0.0123,
        price: payload.price,
        value: payload.value,
        platformFee: payload.platformFee,
        bankFee: centsToUsdNumber(BANK_CHARGES_CENTS[method]),
        networkFee: 0,
        txn: null,
        bankTxn: null,
        confirmations: 0,
        flag: null,
        walletAddress: { address: expect.any(String), amount: 0.0123 },
        payment: { method },
      });
      expect(Object.keys(order.walletAddress).sort()).toEqual(['address', 'amount']);
      expect(isValidBitcoinAddress(order.walletAddress.address, 'testnet')).toBe(true);

      // Stored to the cent and the satoshi as the shared maths has it, at the served buy price.
      const row = await orderRow(order._id);
      expect(row).toMatchObject({
        amountSats: 1_230_000n,
        priceCents: quote.priceCents,
        valueCents: quote.valueCents,
        platformFeeCents: quote.platformFeeCents,
        bankFeeCents: BANK_CHARGES_CENTS[method],
        networkFeeCents: 0n,
        paymentMethod: method,
        txn: null,
        receivedSats: null,
      });
      expect(row.valueCents).toBe(quote.grossCents - quote.platformFeeCents - BANK_CHARGES_CENTS[method]);
      expect(row.platformFeeCents).toBe((quote.grossCents * 150n + 9_999n) / 10_000n);
      // The address is the one derived at the stored index, and the window is 20 minutes.
      expect(row.depositIndex).not.toBeNull();
      expect(row.walletAddress).toBe(deriveDepositAddress(DEMO_ACCOUNT_VPUB, row.depositIndex!, 'testnet'));
      expect(row.quoteExpiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(1_199_000);
      expect(row.quoteExpiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(1_201_000);
      expect(new Date(order.expiresAt).getTime()).toBe(row.quoteExpiresAt.getTime());

      const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order._id));
      expect(events).toMatchObject([{ fromStatus: null, toStatus: 'pending', actor: `user:${ada.userId}` }]);
    }
  });

  it('gives every sell its own address at an increasing index, also when saved at once', async () => {
    const first = (await save(ada, (await sellOrder(ada, 0.002)).payload)).json().order;
    const second = (await save(bob, (await sellOrder(bob, 0.002, 'ach')).payload)).json().order;
    const firstRow = await orderRow(first._id);
    const secondRow = await orderRow(second._id);
    expect(second.walletAddress.address).not.toBe(first.walletAddress.address);
    expect(secondRow.depositIndex!).toBeGreaterThan(firstRow.depositIndex!);

    // Different sells (an identical one within 10 s is a double submission: double-submit.test.ts).
    const payloads = await Promise.all(
      [0.003, 0.0031, 0.0032, 0.0033, 0.0034].map((btc) => sellOrder(ada, btc)),
    );
    const together = await Promise.all(payloads.map(({ payload }) => save(ada, payload)));
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const addresses = together.map((r) => r.json().order.walletAddress.address as string);
    expect(new Set([first.walletAddress.address, second.walletAddress.address, ...addresses]).size).toBe(7);

    const all = await t.database.db
      .select({ depositIndex: orders.depositIndex, walletAddress: orders.walletAddress })
      .from(orders)
      .where(eq(orders.type, 'sell'));
    const indexes = all.map((o) => o.depositIndex);
    expect(new Set(indexes).size).toBe(all.length);
    for (const o of all) {
      expect(o.walletAddress).toBe(deriveDepositAddress(DEMO_ACCOUNT_VPUB, o.depositIndex!, 'testnet'));
    }
  });

  it('stores what the server computed, not the client figures, when they agree within 1 cent', async () => {
    const { payload, quote } = await sellOrder(ada, 0.01, 'ach');
    const response = await save(ada, { ...payload, value: centsToUsdNumber(quote.valueCents - 1n) });
    expect(response.statusCode).toBe(200);
    const row = await orderRow(response.json().order._id);
    expect(row.valueCents).toBe(quote.valueCents);
    expect(response.json().order.value).toBe(payload.value);
  });

  it('checks the customer in the spec order: e-mail, phone, bank account, KYC exists, KYC approved', async () => {
    const fresh = await registerCustomer(t, 'fresh.sell@example.com');
    const attempt = async () => save(fresh, (await sellOrder(fresh, 0.01)).payload);

    // No bank account and no KYC: the bank account is asked for first.
    const noBank = await attempt();
    expect(noBank.statusCode).toBe(403);
    expect(noBank.json().message).toBe('Add a bank account');
    // The phone comes before the bank account, and the e-mail before the phone.
    await t.database.db.execute(sql`update users set phone_verified = false where id = ${fresh.userId}`);
    forgetCachedSessions(fresh.userId);
    expect((await attempt()).json().message).toBe('Verify your phone number');
    await t.database.db.execute(sql`update users set email_verified = false where id = ${fresh.userId}`);
    forgetCachedSessions(fresh.userId);
    expect((await attempt()).json().message).toBe('Verify your email');
    await t.database.db.execute(
      sql`update users set email_verified = true, phone_verified = true where id = ${fresh.userId}`,
    );
    forgetCachedSessions(fresh.userId);

    // With a bank account, the KYC checks follow.
    await saveBank(fresh, ADA_BANK);
    await saveZelle(fresh, 'fresh.zelle@example.com');
    const noKyc = await attempt();
    expect(noKyc.statusCode).toBe(403);
    expect(noKyc.json().message).toBe('Upload your KYC');
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: fresh.userId, status: 'YELLOW' },
    });
    expect((await attempt()).json().message).toBe('Your KYC is under review');
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: fresh.userId, status: 'GREEN' },
    });
    // Approved, but a sale is reported on Form 1099-DA: the W-9 comes before the first sell.
    const noW9 = await attempt();
    expect(noW9.statusCode).toBe(400);
    expect(noW9.json()).toMatchObject({
      code: 'W9_REQUIRED',
      message: 'Add your tax details (Form W-9) before selling.',
    });
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, fresh.userId))).toHaveLength(0);
    await fileW9(fresh);
    expect((await attempt()).statusCode).toBe(200);
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, fresh.userId))).toHaveLength(1);
  });

  it("refuses a payout method without the customer's details for it, with the spec messages", async () => {
    // Carol's bank has a routing number only, and she has no Zelle email.
    const carol = await registerVerifiedCustomer(t, 'carol.sell@example.com');
    await saveBank(carol, { ...ADA_BANK, account_name: 'Carol', swift: '' });
    await fileW9(carol);
    const zelle = await save(carol, (await sellOrder(carol, 0.01, 'zelle')).payload);
    expect(zelle.statusCode).toBe(400);
    expect(zelle.json().message).toBe('Add Zelle payment email in settings.');
    const wire = await save(carol, (await sellOrder(carol, 0.01, 'wire')).payload);
    expect(wire.statusCode).toBe(400);
    expect(wire.json().message).toBe('Add Wire transfer details in settings.');
    expect((await save(carol, (await sellOrder(carol, 0.01, 'ach')).payload)).statusCode).toBe(200);

    // Dan's bank has a SWIFT code only.
    const dan = await registerVerifiedCustomer(t, 'dan.sell@example.com');
    await saveBank(dan, { ...ADA_BANK, account_name: 'Dan', routing_number: '' });
    await fileW9(dan);
    const ach = await save(dan, (await sellOrder(dan, 0.01, 'ach')).payload);
    expect(ach.statusCode).toBe(400);
    expect(ach.json().message).toBe('Add ACH transfer details in settings.');
    expect((await save(dan, (await sellOrder(dan, 0.01, 'wire')).payload)).statusCode).toBe(200);
  });

  it('refuses an absent, unknown or switched-off payout method with "Invalid payment method."', async () => {
    const { payload } = await sellOrder(ada, 0.01);
    const { bankAccount: _omitted, ...withoutMethod } = payload;
    const absent = await save(ada, withoutMethod);
    expect(absent.statusCode).toBe(400);
    expect(absent.json().message).toBe('Invalid payment method.');

    for (const bankAccount of [{ method: 'paypal' }, { method: 'bitcoin' }, { method: '' }, {}]) {
      const method = JSON.stringify(bankAccount);
      const unknown = await save(ada, { ...payload, bankAccount });
      expect(unknown.statusCode, method).toBe(400);
      expect(unknown.json().message, method).toContain('Invalid payment method.');
    }

    // Written past the admin's use case, so this process is told as that use case tells it.
    await t.database.db.update(globalSettings).set({ zelleActive: false });
    forgetCachedGlobalSettings();
    try {
      const off = await save(ada, payload);
      expect(off.statusCode).toBe(400);
      expect(off.json().message).toBe('Invalid payment method.');
    } finally {
      await t.database.db.update(globalSettings).set({ zelleActive: true });
      forgetCachedGlobalSettings();
    }
  });

  it('refuses client figures that disagree with the server (price, fee, bank fee, value, amount)', async () => {
    const { payload: zelle, quote } = await sellOrder(ada, 0.01, 'zelle');
    const usd = (cents: bigint) => centsToUsdNumber(cents);
    const { payload: ach } = await sellOrder(ada, 0.01, 'ach');
    const tampered: [object, object][] = [
      [zelle, { price: zelle.price + 1000 }],
      [zelle, { price: usd(quote.priceCents - 1n) }],
      [zelle, { platformFee: 0 }],
      [zelle, { platformFee: usd(quote.platformFeeCents - 2n) }],
      [zelle, { value: usd(quote.valueCents + 2n) }],
      [zelle, { value: usd(quote.valueCents * 2n) }],
      [zelle, { amount: 0.02 }],
      [zelle, { bankFee: 25 }],
      // ACH charges $1: a client claiming none, or the Zelle figures with the ACH method.
      [ach, { bankFee: 0 }],
      [ach, { bankFee: 0, value: zelle.value }],
      [zelle, { bankAccount: { method: 'ach' } }],
    ];
    const before = await t.database.db.select({ id: orders.id }).from(orders);
    for (const [base, change] of tampered) {
      const response = await save(ada, { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().message, JSON.stringify(change)).toBe(PRICE_CHANGED);
    }
    expect(await t.database.db.select({ id: orders.id }).from(orders)).toHaveLength(before.length);
  });

  it('refuses more than the maximum and less than the minimum, whatever value the client claims', async () => {
    // About $13,000 at the demo price.
    const big = await sellOrder(ada, 0.2);
    expect(big.quote.valueCents).toBeGreaterThan(1_000_000n);
    const tooBig = await save(ada, big.payload);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe('Maximum limit is $10,000.00');
    // Claiming a small value for the same bitcoin does not slip past.
    const understated = await save(ada, { ...big.payload, value: 100 });
    expect(understated.statusCode).toBe(400);
    expect(understated.json().message).toBe(PRICE_CHANGED);

    const small = await save(ada, (await sellOrder(ada, 0.0002)).payload);
    expect(small.statusCode).toBe(400);
    expect(small.json().message).toBe('Minimum order is $20.00');
  });

  it('refuses a sell that would leave nothing to receive, naming the smallest amount that works per method', async () => {
    const price = await currentPrice(t);
    const before = await t.database.db.select({ id: orders.id }).from(orders);
    // Each below what its method's bank charges and the fee would eat: Zelle $0, ACH $1, wire $25.
    for (const [method, amount] of [
      ['zelle', 0.00000001],
      ['ach', 0.00001],
      ['wire', 0.0003],
    ] as const) {
      const { payload } = await sellOrder(ada, 0.01, method);
      const response = await save(ada, { ...payload, amount, value: 0, platformFee: 0 });
      expect(response.statusCode, method).toBe(400);
      const { message } = response.json();
      const named =
        /^For an? (Zelle|ACH|wire) payout, sell at least ([0-9]+\.[0-9]{6}) BTC: the bank charges and fee would leave nothing to receive\.$/.exec(
          message,
        );
      expect(named, message).not.toBeNull();
      expect(named![1]!.toLowerCase()).toBe(method);
      // It is the shared maths' smallest amount, also meeting the $20 minimum order, rounded up.
      const smallest = smallestSellSats({
        buyPriceCents: usdNumberToCents(price.buyPrice),
        feeBps: DEMO_FEE_BPS,
        bankChargesCents: BANK_CHARGES_CENTS[method],
        minOrderCents: 2_000n,
      })!;
      expect(message).toBe(sellDeadEndMessage(method, smallest));
      // And the amount named really works.
      const works = await save(ada, (await sellOrder(ada, Number(named![2]), method)).payload);
      expect(works.statusCode, `${method}: ${works.body}`).toBe(200);
    }
    const after = await t.database.db.select({ id: orders.id }).from(orders);
    expect(after).toHaveLength(before.length + 3);
  });

  it('applies the limits to its own figures, not to a client value one cent inside them', async () => {
    const price = await currentPrice(t);
    for (const [serverCents, claimedCents, message] of [
      [1_000_001n, 1_000_000n, 'Maximum limit is $10,000.00'],
      [1_999n, 2_000n, 'Minimum order is $20.00'],
    ] as const) {
      // The smallest amount that sells for exactly `serverCents` by Zelle.
      const quote = quoteSellFromUsd({
        valueCents: serverCents,
        buyPriceCents: usdNumberToCents(price.buyPrice),
        feeBps: DEMO_FEE_BPS,
        bankChargesCents: 0n,
      })!;
      expect(quote.valueCents).toBe(serverCents);
      const { payload } = await sellOrder(ada, satsToBtcNumber(quote.amountSats));
      const response = await save(ada, { ...payload, value: centsToUsdNumber(claimedCents) });
      expect(response.statusCode, message).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it("refuses saving for another customer's id (403)", async () => {
    const response = await save(ada, (await sellOrder(bob, 0.01)).payload);
    expect(response.statusCode).toBe(403);
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, bob.userId))).toHaveLength(1);
  });

  it("stores the customer's own receiving details, never what the client sent", async () => {
    const forgedBank = {
      account_name: 'Mallory',
      account_number: '666666666',
      bank_name: 'Mallory Bank',
      address: 'Elsewhere',
      routing_number: '111000025',
      swift: 'MALLUS33',
      zelleEmail: 'mallory@example.com',
    };
    const ach = await save(ada, {
      ...(await sellOrder(ada, 0.01, 'ach')).payload,
      bankAccount: { method: 'ach', ...forgedBank },
    });
    expect(ach.statusCode).toBe(200);
    expect(ach.json().order.payment).toMatchObject({
      method: 'ach',
      receiving_in: {
        account_holder: ADA_BANK.account_name,
        account_number: ADA_BANK.account_number,
        bank_name: ADA_BANK.bank_name,
        bank_address: ADA_BANK.address,
        routing_number: ADA_BANK.routing_number,
      },
    });
    expect((await orderRow(ach.json().order._id)).receivingDetails).toEqual({
      account_holder: ADA_BANK.account_name,
      account_number: ADA_BANK.account_number,
      bank_name: ADA_BANK.bank_name,
      bank_address: ADA_BANK.address,
      routing_number: ADA_BANK.routing_number,
    });

    const wire = await save(ada, {
      ...(await sellOrder(ada, 0.01, 'wire')).payload,
      bankAccount: { method: 'wire', ...forgedBank },
    });
    expect((await orderRow(wire.json().order._id)).receivingDetails).toEqual({
      account_holder: ADA_BANK.account_name,
      account_number: ADA_BANK.account_number,
      bank_name: ADA_BANK.bank_name,
      bank_address: ADA_BANK.address,
      swift: ADA_BANK.swift,
    });

    const zelle = await save(ada, {
      ...(await sellOrder(ada, 0.01, 'zelle')).payload,
      bankAccount: { method: 'zelle', ...forgedBank },
    });
    expect((await orderRow(zelle.json().order._id)).receivingDetails).toEqual({
      payment_address: 'ada.zelle@example.com',
    });
    expect(JSON.stringify([ach.json(), wire.json(), zelle.json()])).not.toMatch(/mallory|666666666/i);
  });

  it('refuses to take a deposit address, status or txn from the client', async () => {
    const { payload } = await sellOrder(ada, 0.01);
    const ownAddress = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'testnet');
    const response = await save(ada, { ...payload, walletAddress: ownAddress });
    expect(response.statusCode).toBe(200);
    const row = await orderRow(response.json().order._id);
    expect(row.walletAddress).not.toBe(ownAddress);
    expect(row.walletAddress).toBe(deriveDepositAddress(DEMO_ACCOUNT_VPUB, row.depositIndex!, 'testnet'));
    for (const extra of [{ status: 'processing' }, { txn: 'ab'.repeat(32) }, { depositIndex: 0 }]) {
      expect((await save(ada, { ...payload, ...extra })).statusCode, JSON.stringify(extra)).toBe(400);
    }
  });

  it('keeps a sell out of the buy payment and re-quote paths', async () => {
    const { order } = (await save(ada, (await sellOrder(ada, 0.01)).payload)).json();
    const update = (payload: object) =>
      t.request({ method: 'POST', url: '/api/order/update', headers: ada.auth, payload });
    const paid = await update({ _id: order._id, payment: { method: 'zelle' }, status: 'processing' });
    expect(paid.statusCode).toBe(400);
    const requote = await update({ ...(await sellOrder(ada, 0.02)).payload, _id: order._id });
    expect(requote.statusCode).toBe(409);
    expect(await orderRow(order._id)).toMatchObject({ status: 'pending', amountSats: 1_000_000n });
  });

  it('lists sells with the deposit address and amount', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${bob.userId}`,
      headers: bob.auth,
    });
    const [sell] = list.json().result.orders;
    expect(sell).toMatchObject({
      type: 'sell',
      walletAddress: { address: expect.stringMatching(/^tb1q/), amount: satsToBtcNumber(200_000n) },
    });
  });
});
