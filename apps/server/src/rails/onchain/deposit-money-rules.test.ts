import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdNumberToCents } from '@offzero/shared/money/money';
import { quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import { globalSettings, orders, users, type OrderRow } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { currentPrice, DEMO_FEE_BPS, saveBank, saveZelle, sellOrder, fileW9 } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { priceDeposits } from '../../orders/pricing/price-order';

/** The tests run every watcher pass themselves; one confirmation lets the dollars go out. */
const ENV = { CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: '1' };

describe('money rules on sell deposits (docs/design.md)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;

  const ok = async (response: Awaited<ReturnType<TestApp['request']>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  const poll = () => t.app.depositWatcher.pollOnce();
  async function seller(email: string): Promise<RegisteredCustomer> {
    const customer = await registerVerifiedCustomer(t, email);
    await saveBank(t, customer);
    await fileW9(t, customer);
    await saveZelle(t, customer, email);
    return customer;
  }
  async function placeSell(who: RegisteredCustomer, amountBtc: number) {
    const { payload } = await sellOrder(t, who, amountBtc, 'zelle');
    const response = await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
    return response;
  }
  async function sell(who: RegisteredCustomer, amountBtc: number) {
    const response = await ok(await placeSell(who, amountBtc));
    const order = response.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
    return { id: order._id, address: order.walletAddress.address };
  }
  async function send(address: string, amount: number): Promise<string> {
    const response = await ok(
      await t.request({ method: 'POST', url: '/api/dev/chain/send', payload: { address, amount } }),
    );
    return response.json<{ txid: string }>().txid;
  }
  const mine = async (blocks: number) =>
    ok(await t.request({ method: 'POST', url: '/api/dev/chain/mine', payload: { blocks } }));
  const drop = async (txid: string) =>
    ok(await t.request({ method: 'POST', url: '/api/dev/chain/drop', payload: { txid } }));
  async function order(id: string): Promise<OrderRow> {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`order ${id} not found`);
    return row;
  }
  /** Sets the price the order was locked at, as if the market had moved since it was placed. */
  const lockPrice = (id: string, priceCents: bigint) =>
    t.database.db.update(orders).set({ priceCents }).where(eq(orders.id, id));
  const buyPrice = async () => usdNumberToCents((await currentPrice(t)).buyPrice);
  const asAdmin = (url: string, payload: object) =>
    t.request({ method: 'POST', url, headers: admin.auth, payload });

  beforeAll(async () => {
    t = await createTestApp(ENV);
    admin = await logIn(t, 'admin@offzero.local');
  });
  afterAll(async () => t.close());

  describe('over-payment', () => {
    it('flags and holds an order whose over-payment of 100 times the order takes it over max_order_size', async () => {
      const ada = await seller('ada.overlimit@example.com');
      const placed = await sell(ada, 0.01);
      const txid = await send(placed.address, 1);
      await poll();

      const row = await order(placed.id);
      const [settings] = await t.database.db.select().from(globalSettings);
      expect(row).toMatchObject({
        status: 'processing',
        txn: txid,
        receivedSats: 100_000_000n,
        flag: 'over_limit',
      });
      expect(row.valueCents).toBeGreaterThan(settings!.maxOrderCents);
      expect(row.flagNote).toContain('order limit');

      // The back office sees it among the flagged orders.
      const queue = await t.request({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
      expect(queue.json().flagged.map((o: { _id: string }) => o._id)).toContain(placed.id);

      // A later deposit does not take the hold away.
      await send(placed.address, 0.001);
      await poll();
      expect(await order(placed.id)).toMatchObject({ flag: 'over_limit', receivedSats: 100_100_000n });
    });

    it('prices the part beyond the quoted amount at the lower of the locked and the current price', async () => {
      const bob = await seller('bob.overpaid@example.com');
      const placed = await sell(bob, 0.01);
      // The order was locked $5,000 above today's price: the extra may not ride on that price.
      const before = await buyPrice();
      const locked = before + 500_000n;
      await lockPrice(placed.id, locked);
      await send(placed.address, 0.015);
      await poll();
      const after = await buyPrice();

      const row = await order(placed.id);
      expect(row).toMatchObject({ status: 'processing', flag: 'overpaid', amountSats: 1_500_000n });
      const expected = [before, after].map(
        (current) =>
          priceDeposits({
            receivedSats: 1_500_000n,
            quotedSats: 1_000_000n,
            basePriceCents: locked,
            lockedPriceCents: locked,
            currentPriceCents: current,
            feeBps: DEMO_FEE_BPS,
            bankChargesCents: 0n,
          })!.valueCents,
      );
      expect(expected).toContain(row.valueCents);
      // Less than all of it at the locked price.
      const allAtLocked = quoteSellFromBtc({
        amountSats: 1_500_000n,
        buyPriceCents: locked,
        feeBps: DEMO_FEE_BPS,
        bankChargesCents: 0n,
      })!;
      expect(row.valueCents).toBeLessThan(allAtLocked.valueCents);
    });
  });

  describe('split deposits', () => {
    it('prices two deposits on their sum and keeps the first one’s under-payment flag', async () => {
      const cy = await seller('cy.split@example.com');
      const placed = await sell(cy, 0.01);
      const locked = await order(placed.id);
      // 500 satoshis first: flagged as under-paid.
      await send(placed.address, 0.000005);
      await poll();
      expect(await order(placed.id)).toMatchObject({ flag: 'underpaid', receivedSats: 500n });

      // The rest makes exactly the quoted amount: the locked quote is paid, the flag stays for staff.
      const rest = await send(placed.address, 0.009995);
      await poll();
      const row = await order(placed.id);
      expect(row).toMatchObject({
        status: 'processing',
        txn: rest,
        receivedSats: 1_000_000n,
        amountSats: locked.amountSats,
        valueCents: locked.valueCents,
        priceCents: locked.priceCents,
        flag: 'underpaid',
      });
    });

    it('does not wipe a dust deposit’s flag when a full payment follows; both are priced together', async () => {
      const di = await seller('di.split@example.com');
      const placed = await sell(di, 0.01);
      const locked = await order(placed.id);
      await lockPrice(placed.id, locked.priceCents - 100_000n);
      await send(placed.address, 0.000005);
      await poll();
      await send(placed.address, 0.01);
      await poll();
      const row = await order(placed.id);
      const expected = quoteSellFromBtc({
        amountSats: 1_000_500n,
        buyPriceCents: locked.priceCents - 100_000n,
        feeBps: DEMO_FEE_BPS,
        bankChargesCents: 0n,
      })!;
      expect(row).toMatchObject({
        status: 'processing',
        receivedSats: 1_000_500n,
        amountSats: 1_000_500n,
        valueCents: expected.valueCents,
        flag: 'overpaid',
      });
      expect(row.flagNote).toContain('2 deposits');
      expect(row.flagNote).toContain('earlier underpaid');
    });
  });

  describe('reversal after payout', () => {
    async function paidOut(who: RegisteredCustomer) {
      const placed = await sell(who, 0.004);
      const txid = await send(placed.address, 0.004);
      await poll();
      await mine(1);
      await poll();
      await ok(await asAdmin(`/api/admin/orders/${placed.id}/payout-usd`, { reference: 'ZELLE-PAYOUT-1' }));
      expect(await order(placed.id)).toMatchObject({ status: 'completed', confirmations: 1 });
      return { ...placed, txid };
    }
    const restriction = async (userId: string) =>
      (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]?.restrictedAt ?? null;

    it('flags deposit_reversed and restricts the customer when a paid deposit vanishes before 6 blocks', async () => {
      const eve = await seller('eve.reversal@example.com');
      const paid = await paidOut(eve);
      await mine(2);
      await poll();
      expect((await order(paid.id)).confirmations).toBe(3);

      await drop(paid.txid);
      await poll();
      const row = await order(paid.id);
      expect(row).toMatchObject({ status: 'completed', flag: 'deposit_reversed' });
      expect(row.flagNote).toContain(paid.txid);
      expect(await restriction(eve.userId)).not.toBeNull();

      // The back office's work queue shows it; the customer can no longer sell.
      const queue = await t.request({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
      expect(queue.json().flagged.map((o: { _id: string }) => o._id)).toContain(paid.id);
      expect((await placeSell(eve, 0.002)).statusCode).toBe(403);
    });

    it('stops watching once the deposit is 6 blocks deep', async () => {
      const fay = await seller('fay.settled@example.com');
      const paid = await paidOut(fay);
      await mine(5);
      await poll();
      expect((await order(paid.id)).confirmations).toBe(6);

      await drop(paid.txid);
      await poll();
      expect((await order(paid.id)).flag).toBeNull();
      expect(await restriction(fay.userId)).toBeNull();
    });
  });
});
