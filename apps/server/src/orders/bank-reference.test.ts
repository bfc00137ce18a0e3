import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, type OrderRow } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

describe('duplicate bank references (docs/design.md)', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  let admin: RegisteredCustomer;

  const update = (who: RegisteredCustomer, payload: object) =>
    t.request({ method: 'POST', url: '/api/order/update', headers: who.auth, payload });
  const zellePayment = (amount: number) => ({
    method: 'zelle',
    amount,
    create_time: new Date().toISOString(),
  });
  async function paidBuy(who: RegisteredCustomer, bankTxn?: string): Promise<string> {
    const id = await placeBuyOrder(t, who, 100);
    const paid = await update(who, {
      _id: id,
      payment: zellePayment(100),
      status: 'processing',
      ...(bankTxn === undefined ? {} : { bankTxn }),
    });
    expect(paid.statusCode).toBe(200);
    return id;
  }
  async function order(id: string): Promise<OrderRow> {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`order ${id} not found`);
    return row;
  }

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerVerifiedCustomer(t, 'ada.reference@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.reference@example.com');
    admin = await logIn(t, 'admin@offzero.local');
  });
  afterAll(async () => t.close());

  it('flags the later order when its reference is already on another order, whatever its case and spaces', async () => {
    const first = await paidBuy(ada);
    expect((await update(ada, { _id: first, bankTxn: 'ZL-2026 000777' })).statusCode).toBe(200);
    const second = await paidBuy(bob);
    const answer = await update(bob, { _id: second, bankTxn: '  zl-2026000 777 ' });
    expect(answer.statusCode).toBe(200);

    expect(await order(first)).toMatchObject({ bankTxn: 'ZL-2026 000777', flag: null });
    const later = await order(second);
    expect(later).toMatchObject({ bankTxn: 'zl-2026000 777', flag: 'duplicate_reference' });
    expect(later.flagNote).toContain(first.slice(0, 8));
    const queue = await t.request({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
    expect(queue.json().flagged.map((o: { _id: string }) => o._id)).toContain(second);
  });

  it('flags a manual payment submitted with a reference another order already has', async () => {
    const first = await paidBuy(ada, 'WIRE 55 66 77');
    const second = await paidBuy(bob, 'wire556677');
    expect((await order(first)).flag).toBeNull();
    expect(await order(second)).toMatchObject({ status: 'processing', flag: 'duplicate_reference' });
  });

  it('leaves an order with a reference of its own, or its own reference again, unflagged', async () => {
    const id = await paidBuy(ada, 'ZL-UNIQUE-0001');
    expect((await update(ada, { _id: id, bankTxn: 'zl-unique-0001' })).statusCode).toBe(200);
    const other = await paidBuy(bob);
    expect((await update(bob, { _id: other, bankTxn: 'ZL-UNIQUE-0002' })).statusCode).toBe(200);
    expect((await order(id)).flag).toBeNull();
    expect((await order(other)).flag).toBeNull();
  });
});
