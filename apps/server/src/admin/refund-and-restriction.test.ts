import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payouts, users, type OrderRow } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder, TEST_WALLET } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { restrictCustomer } from '../users/customer-restriction.repository';

const ENV = { CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: '1' };
const REFUND_TXID = 'c0ffee'.repeat(10) + 'abcd';
const MAINNET_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

describe('back office: returning bitcoin and lifting restrictions (docs/design.md)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;

  const ok = async (response: Awaited<ReturnType<TestApp['request']>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
  const refund = (orderId: string, payload: object, who: RegisteredCustomer = admin) =>
    t.request({ method: 'POST', url: `/api/admin/orders/${orderId}/refund-btc`, headers: who.auth, payload });
  async function order(id: string): Promise<OrderRow> {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`order ${id} not found`);
    return row;
  }
  /** A sell order of `amountBtc` whose deposit address received `sentBtc`, seen by the watcher. */
  async function sellWithDeposit(amountBtc: number, sentBtc: number) {
    const { payload } = await sellOrder(t, ada, amountBtc, 'zelle');
    const saved = await ok(
      await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload }),
    );
    const placed = saved.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
    await ok(
      await t.request({
        method: 'POST',
        url: '/api/dev/chain/send',
        payload: { address: placed.walletAddress.address, amount: sentBtc },
      }),
    );
    await t.app.depositWatcher.pollOnce();
    return { id: placed._id, address: placed.walletAddress.address };
  }

  beforeAll(async () => {
    t = await createTestApp(ENV);
    admin = await logIn(t, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(t, 'ada.refund@example.com');
    await saveBank(t, ada);
    await fileW9(t, ada);
    await saveZelle(t, ada, 'ada.refund@example.com');
  });
  afterAll(async () => t.close());

  describe('POST /api/admin/orders/:id/refund-btc', () => {
    it('returns the coins of an order held over the limit: cancelled, flag cleared, recorded and audited', async () => {
      const held = await sellWithDeposit(0.01, 1);
      expect(await order(held.id)).toMatchObject({ status: 'processing', flag: 'over_limit' });

      const answer = await refund(held.id, { address: TEST_WALLET, txid: REFUND_TXID.toUpperCase() });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().order).toMatchObject({ _id: held.id, status: 'cancelled', flag: null });
      const row = await order(held.id);
      expect(row.flagNote).toContain(REFUND_TXID);
      expect(row.flagNote).toContain('over_limit');
      expect(
        await t.database.db
          .select()
          .from(payouts)
          .where(and(eq(payouts.orderId, held.id), eq(payouts.purpose, 'refund'))),
      ).toMatchObject([{ address: TEST_WALLET, txid: REFUND_TXID }]);

      const detail = (await asAdmin('GET', `/api/admin/orders/${held.id}`)).json();
      expect(detail.timeline.at(-1)).toMatchObject({
        from: 'processing',
        to: 'cancelled',
        reason: 'bitcoin returned to the customer',
      });
      const audit = (
        await asAdmin('GET', `/api/admin/audit?action=order.refund_btc&targetId=${held.id}`)
      ).json();
      expect(audit.entries).toHaveLength(1);

      // Once only.
      const again = await refund(held.id, { address: TEST_WALLET, txid: REFUND_TXID });
      expect(again.statusCode).toBe(409);
    });

    it('returns a deposit that came to a cancelled order: it stays cancelled, the return is in its timeline', async () => {
      const { payload } = await sellOrder(t, ada, 0.002, 'zelle');
      const saved = await ok(
        await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload }),
      );
      const placed = saved.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
      await ok(await asAdmin('POST', `/api/admin/orders/${placed._id}/cancel`, { reason: 'customer asked' }));
      await ok(
        await t.request({
          method: 'POST',
          url: '/api/dev/chain/send',
          payload: { address: placed.walletAddress.address, amount: 0.002 },
        }),
      );
      await t.app.depositWatcher.pollOnce();
      expect(await order(placed._id)).toMatchObject({ status: 'cancelled', flag: 'extra_deposit' });

      expect((await refund(placed._id, { address: TEST_WALLET, txid: REFUND_TXID })).statusCode).toBe(200);
      expect(await order(placed._id)).toMatchObject({ status: 'cancelled', flag: null });
      const detail = (await asAdmin('GET', `/api/admin/orders/${placed._id}`)).json();
      expect(detail.timeline.at(-1)).toMatchObject({
        from: 'cancelled',
        to: 'cancelled',
        reason: 'bitcoin returned to the customer',
      });
    });

    it('refuses an order whose coins are due to be paid for, a buy, and a customer', async () => {
      const due = await sellWithDeposit(0.002, 0.002);
      expect(await order(due.id)).toMatchObject({ status: 'processing', flag: null });
      const refused = await refund(due.id, { address: TEST_WALLET, txid: REFUND_TXID });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('flagged, cancelled or expired');
      expect(await order(due.id)).toMatchObject({ status: 'processing' });

      const buy = await placeBuyOrder(t, ada, 100);
      expect((await refund(buy, { address: TEST_WALLET, txid: REFUND_TXID })).statusCode).toBe(409);
      expect((await refund(due.id, { address: TEST_WALLET, txid: REFUND_TXID }, ada)).statusCode).toBe(403);
    });

    it('answers 400 for an address of another network or a malformed transaction id, changing nothing', async () => {
      const held = await sellWithDeposit(0.01, 1);
      for (const payload of [
        { address: MAINNET_ADDRESS, txid: REFUND_TXID },
        { address: 'not-an-address', txid: REFUND_TXID },
        { address: TEST_WALLET, txid: 'abc123' },
        { address: TEST_WALLET },
      ]) {
        const answer = await refund(held.id, payload);
        expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect(await order(held.id)).toMatchObject({ status: 'processing', flag: 'over_limit' });
    });
  });

  describe('lifting a restriction', () => {
    it('shows the restriction and its reason, and lifts it with an audited reason', async () => {
      const bob = await registerVerifiedCustomer(t, 'bob.restricted@example.com');
      await restrictCustomer(t.database.db, bob.userId, 'the deposit of sell order #abcd1234 was reversed');
      const shown = (await asAdmin('GET', `/api/admin/users/${bob.userId}`)).json();
      expect(shown.user.restrictedAt).not.toBeNull();
      expect(shown.user.restrictedReason).toContain('reversed');

      const tooShort = await asAdmin('POST', `/api/admin/users/${bob.userId}/lift-restriction`, {
        reason: 'x',
      });
      expect(tooShort.statusCode).toBe(400);
      const lifted = await asAdmin('POST', `/api/admin/users/${bob.userId}/lift-restriction`, {
        reason: 'funds recovered from the customer',
      });
      expect(lifted.statusCode).toBe(200);
      expect(lifted.json().message).toContain('lifted');
      const [row] = await t.database.db.select().from(users).where(eq(users.id, bob.userId));
      expect(row).toMatchObject({ restrictedAt: null, restrictedReason: null });
      const audit = (
        await asAdmin('GET', `/api/admin/audit?action=user.lift_restriction&targetId=${bob.userId}`)
      ).json();
      expect(audit.entries).toMatchObject([
        {
          note: 'funds recovered from the customer',
          before: { restrictedReason: 'the deposit of sell order #abcd1234 was reversed' },
        },
      ]);

      // Nothing left to lift; and customers cannot call it.
      const again = await asAdmin('POST', `/api/admin/users/${bob.userId}/lift-restriction`, {
        reason: 'again',
      });
      expect(again.statusCode).toBe(409);
      const byCustomer = await t.request({
        method: 'POST',
        url: `/api/admin/users/${bob.userId}/lift-restriction`,
        headers: bob.auth,
        payload: { reason: 'let me trade' },
      });
      expect(byCustomer.statusCode).toBe(403);
    });
  });
});
