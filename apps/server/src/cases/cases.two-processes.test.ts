import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitoringCases, orders } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../test/test-app';

/**
 * The one-open-case rule across processes (docs/design.md): two server processes on one PostgreSQL
 * database run the monitoring rules on the same customer's orders at the same moment, many times each;
 * one case opens per rule.
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';

describe.runIf(IS_POSTGRES)('monitoring jobs on two processes at once', () => {
  let a: TestApp;
  let b: TestApp;
  let who: RegisteredCustomer;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestAppOnSameDatabase(a);
    who = await registerVerifiedCustomer(a, 'two.processes.cases@example.com');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('opens one structuring case and one velocity case', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const createdAt = new Date(Date.now() - i * 60_000);
      const [row] = await a.database.db
        .insert(orders)
        .values({
          userId: who.userId,
          type: 'buy',
          amountSats: 1_000_000n,
          valueCents: 250_000n + BigInt(i),
          priceCents: 6_000_000n,
          platformFeeCents: 100n,
          quoteExpiresAt: new Date(createdAt.getTime() + 15 * 60_000),
          createdAt,
          updatedAt: createdAt,
        })
        .returning({ id: orders.id });
      ids.push(row!.id);
    }
    await Promise.all(
      [1, 2, 3].flatMap(() =>
        ids.flatMap((id) => [a.app.cases.monitorOrder(id), b.app.cases.monitorOrder(id)]),
      ),
    );
    const cases = await a.database.db
      .select()
      .from(monitoringCases)
      .where(eq(monitoringCases.userId, who.userId));
    expect(cases.map((row) => row.rule).sort()).toEqual(['structuring', 'velocity']);
  });
});
