import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

const PER_USER = 30;

describe('state-changing calls per signed-in customer', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp({ MUTATIONS_PER_USER_PER_MINUTE: String(PER_USER) });
    ada = await registerVerifiedCustomer(t, 'ada.flood@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.flood@example.com');
  });
  afterAll(async () => t.close());

  it('1,000 rapid order saves from one customer: the first few are served, the rest get 429 with Retry-After', async () => {
    const payload = await buyOrderPayload(t, ada, 100);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<TestApp['request']>> | undefined;
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          t.request({
            method: 'POST',
            url: '/api/order/save',
            headers: ada.auth,
            payload,
            // From many addresses: the limit follows the customer, not the address.
            remoteAddress: `10.0.${batch}.${i + 1}`,
          }),
        ),
      );
      for (const answer of answers) {
        statuses.push(answer.statusCode);
        if (answer.statusCode === 429) refused ??= answer;
      }
    }
    const served = statuses.filter((status) => status !== 429).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(PER_USER);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1000 - served);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(refused?.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(refused?.json().message).toMatch(
      /^Too many requests\. Try again at .+ UTC \(in \d+ (?:seconds?|minutes?)\)\.$/,
    );
    expect(refused?.json().retryAt).toEqual(expect.any(String));
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);

    const saved = await t.database.db.select().from(orders).where(eq(orders.userId, ada.userId));
    expect(saved.length).toBeLessThanOrEqual(PER_USER);

    // Reading stays open to her, and another customer is not held back by her limit.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(list.statusCode).toBe(200);
    const bobSave = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: bob.auth,
      payload: await buyOrderPayload(t, bob, 100),
    });
    expect(bobSave.statusCode).toBe(200);
  });
});

describe('state-changing calls per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Redis configured but not answering (nothing listens on port 1): the limit is counted in memory.
    t = await createTestApp({ MUTATIONS_PER_IP_PER_MINUTE: '5', REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => t.close());

  const sendCode = (remoteAddress: string, n: number) =>
    t.request({
      method: 'POST',
      url: '/api/verification/email/otp',
      payload: { email: `flood${n}@example.com`, purpose: 'new account' },
      remoteAddress,
    });

  it('refuses the sixth call in a minute from one address, even with Redis down, and serves another address', async () => {
    const first = [];
    for (let n = 0; n < 5; n++) first.push((await sendCode('10.1.1.1', n)).statusCode);
    expect(first.every((status) => status !== 429)).toBe(true);
    const sixth = await sendCode('10.1.1.1', 5);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((await sendCode('10.2.2.2', 6)).statusCode).not.toBe(429);
    // Reads are not counted.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/price', remoteAddress: '10.1.1.1' })).statusCode,
    ).toBe(200);
  });
});
