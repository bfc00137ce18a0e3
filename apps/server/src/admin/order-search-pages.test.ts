import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { newBuyOrderRow } from '../test/new-buy-order-row';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let admin: RegisteredCustomer;
let customer: RegisteredCustomer;
const SAME_INSTANT = new Date('2026-03-01T12:00:00.123Z');

interface Page {
  orders: { _id: string; createdAt: string }[];
  total: number;
  nextCursor: string | null;
}

const search = async (query: string, who = admin) =>
  t.request({ method: 'GET', url: `/api/admin/orders?${query}`, headers: who.auth });

beforeAll(async () => {
  t = await createTestApp();
  admin = await logIn(t, 'admin@offzero.local');
  customer = await registerVerifiedCustomer(t, 'pages.search@example.com');
  const [other] = await t.database.db
    .insert(users)
    .values({ email: 'other.pages@example.com', emailVerified: true })
    .returning({ id: users.id });
  // 23 orders, some sharing one instant (ties are broken by id), and 7 of another customer.
  const rows = Array.from({ length: 23 }, (_, i) => ({
    ...newBuyOrderRow(customer.userId, BigInt(10_000 + i)),
    createdAt: i % 3 === 0 ? SAME_INSTANT : new Date(SAME_INSTANT.getTime() - i * 60_000),
  }));
  const others = Array.from({ length: 7 }, (_, i) => newBuyOrderRow(other!.id, BigInt(20_000 + i)));
  // Whose address holds the first customer's whole address inside it.
  const [longer] = await t.database.db
    .insert(users)
    .values({ email: 'xpages.search@example.com', emailVerified: true })
    .returning({ id: users.id });
  const longers = Array.from({ length: 2 }, (_, i) => newBuyOrderRow(longer!.id, BigInt(30_000 + i)));
  await t.database.db.insert(orders).values([...rows, ...others, ...longers]);
});
afterAll(() => t?.close());

describe('the order desk pages by cursor', () => {
  it('walks every matching order once, newest first, with the total on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await search(`customer=pages.search%40example.com&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.statusCode).toBe(200);
      const page = answer.json<Page>();
      expect(page.total).toBe(23);
      seen.push(...page.orders.map((order) => order._id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
    // The same order as one page of everything.
    const all = (await search('customer=pages.search%40example.com&limit=100')).json<Page>();
    expect(all.orders.map((order) => order._id)).toEqual(seen);
    expect(all.nextCursor).toBeNull();
  });

  it('keeps offset paging as it was', async () => {
    const first = (await search('customer=pages.search%40example.com&limit=5')).json<Page>();
    const second = (await search('customer=pages.search%40example.com&limit=5&offset=5')).json<Page>();
    const byCursor = (await search(`customer=pages.search%40example.com&limit=5&cursor=${first.nextCursor}`)).json<Page>();
    expect(second.orders).toEqual(byCursor.orders);
  });

  it('refuses a cursor that is not an order id, and a customer gets nothing', async () => {
    const bad = await search('limit=5&cursor=not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('nextCursor');
    const page = (await search('customer=pages.search%40example.com&limit=5')).json<Page>();
    const asCustomer = await search(`limit=5&cursor=${page.nextCursor}`, customer);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.body).not.toContain(page.orders[0]!._id);
  });

  it("reads a customer's whole e-mail address as that customer, and part of one as every customer it is part of", async () => {
    const totalOf = async (term: string) =>
      (await search(`customer=${encodeURIComponent(term)}&limit=5`)).json<Page>().total;
    expect(await totalOf('pages.search@example.com')).toBe(23);
    expect(await totalOf('  Pages.Search@Example.COM ')).toBe(23);
    expect(await totalOf('pages.search@')).toBe(25);
    expect(await totalOf('pages.search')).toBe(25);
    // A whole address that is no customer's is still searched as a part: here, of the longer one.
    expect(await totalOf('search@example.com')).toBe(25);
    expect(await totalOf('nobody.at.all@example.com')).toBe(0);
  });
});
