import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

describe('back office: restricting a customer by staff decision (docs/design.md)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  const restrict = (userId: string, reason: string, who: RegisteredCustomer = admin) =>
    t.request({
      method: 'POST',
      url: `/api/admin/users/${userId}/restrict`,
      headers: who.auth,
      payload: { reason },
    });
  const saveBuy = async (who: RegisteredCustomer) =>
    t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: who.auth,
      payload: await buyOrderPayload(t, who, 100),
    });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await logIn(t, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(t, 'ada.restrict@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.restrict@example.com');
  });
  afterAll(async () => t.close());

  it('restricts: the customer reads but cannot trade, and the back office shows why', async () => {
    expect((await saveBuy(ada)).statusCode).toBe(200);
    const answer = await restrict(ada.userId, 'Source of funds unclear');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toContain('Trading restricted');

    const refused = await saveBuy(ada);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Your account is under review. Contact support.' });
    const list = await t.request({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().result.orders).toHaveLength(1);

    const detail = (
      await t.request({ method: 'GET', url: `/api/admin/users/${ada.userId}`, headers: admin.auth })
    ).json();
    expect(detail.user.restrictedReason).toBe('staff decision: Source of funds unclear');
    expect(detail.user.restrictedAt).toEqual(expect.any(String));
    const audit = (
      await t.request({
        method: 'GET',
        url: `/api/admin/audit?action=user.restrict&targetId=${ada.userId}`,
        headers: admin.auth,
      })
    ).json();
    expect(JSON.stringify(audit)).toContain('Source of funds unclear');
  });

  it('refuses a second restriction, a short reason, an unknown customer and a customer calling it', async () => {
    expect((await restrict(ada.userId, 'again please')).statusCode).toBe(409);
    expect((await restrict(bob.userId, 'no')).statusCode).toBe(400);
    expect((await restrict('00000000-0000-4000-8000-000000000000', 'Unknown person')).statusCode).toBe(404);
    expect((await restrict(bob.userId, 'I restrict you', ada)).statusCode).toBe(403);
    expect((await saveBuy(bob)).statusCode).toBe(200);
  });

  it('lifting the restriction lets the customer trade again', async () => {
    const lifted = await t.request({
      method: 'POST',
      url: `/api/admin/users/${ada.userId}/lift-restriction`,
      headers: admin.auth,
      payload: { reason: 'Documents received' },
    });
    expect(lifted.statusCode).toBe(200);
    expect((await saveBuy(ada)).statusCode).toBe(200);
  });
});
