import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACH_FILE_MESSAGES } from '@offzero/shared/api/ach-files';
import { formatUsd } from '@offzero/shared/money/money';
import { createSimulatedChain, type SimulatedChain } from '../../chain/simulated-chain';
import { achFileEntries, achFiles, deposits, orders, payouts } from '../../db/schema';
import { bankDayAt } from '../../rails/ach/business-day';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import nacha from '@midlandsbank/node-nacha';
import { readNachaFile, writtenByNach2 } from '../../test/nacha-check';
import { fileW9, saveBank, saveZelle, sellOrder, TEST_BANK, type SellMethod } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

/**
 * The day's ACH file (docs/design.md, "ACH file"): the due ACH sell payouts of a New York day as one
 * NACHA file, checked against nach2; downloading marks them submitted, once, and the day's file stays
 * the same bytes.
 */
let t: TestApp;
let chain: SimulatedChain;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' });
  chain = createSimulatedChain(t.database.db);
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.achfile@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.achfile@example.com');
  await saveBank(t, ada);
  await saveBank(t, bob, { ...TEST_BANK, account_name: 'Bob Élan-Núñez', routing_number: '011000015' });
  await fileW9(t, ada);
  await fileW9(t, bob);
  await saveZelle(t, ada, 'ada.achfile@example.com');
});
afterAll(async () => t.close());

const today = () => bankDayAt(new Date());
const yesterday = () => bankDayAt(new Date(Date.now() - 86_400_000));
const fileOf = (date: string, who: RegisteredCustomer | null = admin) =>
  t.request({
    method: 'GET',
    url: `/api/admin/payouts/ach-file?date=${encodeURIComponent(date)}`,
    headers: who?.auth ?? {},
  });
const summaryOf = (date: string) =>
  t.request({ method: 'GET', url: `/api/admin/payouts/ach-file/summary?date=${date}`, headers: admin.auth });
const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const payoutsOf = (orderId: string) =>
  t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));
const entryLines = (text: string) => text.split('\n').filter((line) => line.startsWith('6'));

/** A sell paid out by `method` whose deposit arrived (and, unless told, confirmed). */
async function creditedSell(
  who: RegisteredCustomer,
  amountBtc: number,
  method: SellMethod = 'ach',
  confirm = true,
): Promise<string> {
  const { payload } = await sellOrder(t, who, amountBtc, method);
  const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
  expect(saved.statusCode, saved.body).toBe(200);
  const order = saved.json().order as { _id: string; walletAddress: { address: string } };
  await chain.send(order.walletAddress.address, BigInt(Math.round(amountBtc * 1e8)));
  if (confirm) await chain.mine(1);
  await t.app.depositWatcher.pollOnce();
  expect((await orderRow(order._id)).status).toBe('processing');
  return order._id;
}

/** As if the order's deposit had arrived two days ago. */
async function depositSeenDaysAgo(orderId: string, days: number): Promise<void> {
  await t.database.db
    .update(deposits)
    .set({ firstSeenAt: new Date(Date.now() - days * 86_400_000) })
    .where(eq(deposits.orderId, orderId));
}

describe('the ACH file of a day', () => {
  it('holds exactly the due ACH payouts of the day, as a file nach2 writes the same, and marks them submitted', async () => {
    const older = await creditedSell(ada, 0.0021);
    await depositSeenDaysAgo(older, 2);
    const recent = await creditedSell(bob, 0.0022);
    const zelle = await creditedSell(ada, 0.0024, 'zelle');
    const flagged = await creditedSell(ada, 0.0025);
    await depositSeenDaysAgo(flagged, 2);
    await t.database.db
      .update(orders)
      .set({ flag: 'over_limit', flagNote: 'held' })
      .where(eq(orders.id, flagged));
    // Last: no block is mined after it, so its deposit stays unconfirmed.
    const unconfirmed = await creditedSell(ada, 0.0023, 'ach', false);

    // Yesterday's file: only what was credited by the end of yesterday in New York.
    const before = await summaryOf(yesterday());
    expect(before.statusCode, before.body).toBe(200);
    const olderRow = await orderRow(older);
    expect(before.json()).toMatchObject({
      downloaded: false,
      entryCount: 1,
      total: formatUsd(olderRow.valueCents),
      skipped: [],
    });

    const first = await fileOf(yesterday());
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    const lines = first.body.split('\n').slice(0, -1);
    expect(lines.length % 10).toBe(0);
    for (const line of lines) expect(line).toHaveLength(94);
    expect(await writtenByNach2(readNachaFile(first.body))).toEqual(lines);
    const [entry] = readNachaFile(first.body).batches[0]!.entries;
    expect(entry).toMatchObject({
      transactionCode: '22',
      routingNumber: TEST_BANK.routing_number,
      accountNumber: TEST_BANK.account_number,
      amountCents: olderRow.valueCents,
      individualName: 'ADA LOVELACE',
    });
    // An independent parser reads the downloaded file back the same (routing digits as a number).
    const parsed = nacha.from(first.body).data;
    const [parsedEntry] = parsed.batches[0]!.entries;
    expect(parsedEntry).toMatchObject({
      transactionCode: '22',
      dfiAccount: TEST_BANK.account_number,
      amount: Number(olderRow.valueCents),
      receivingCompanyName: 'ADA LOVELACE',
      receivingDFIIdentification: Number(TEST_BANK.routing_number.slice(0, 8)),
    });
    const control = {
      entryAndAddendaCount: 1,
      entryHash: Number(TEST_BANK.routing_number.slice(0, 8)),
      totalDebit: 0,
      totalCredit: Number(olderRow.valueCents),
    };
    expect(parsed.batches[0]!.footer).toMatchObject(control);
    expect(parsed.file.footer).toMatchObject({ ...control, batchCount: 1, blockCount: 1 });

    const [payout] = await payoutsOf(older);
    expect(payout).toMatchObject({ state: 'submitted', rail: 'ach', sender: 'nacha-file', kind: 'usd' });
    for (const id of [recent, unconfirmed, zelle, flagged]) expect(await payoutsOf(id)).toEqual([]);

    // Today's: the recent one (its name as a NACHA file writes it), not the one filed yesterday.
    const second = await fileOf(today());
    expect(second.statusCode).toBe(200);
    const todays = readNachaFile(second.body).batches[0]!.entries;
    expect(todays.map((line) => line.individualName)).toEqual(['BOB ELAN-NUNEZ']);
    expect(todays[0]!.routingNumber).toBe('011000015');
    expect((await payoutsOf(recent))[0]?.state).toBe('submitted');
    expect(await writtenByNach2(readNachaFile(second.body))).toEqual(second.body.split('\n').slice(0, -1));
  });

  it('answers the same bytes for the same day, whatever fell due since', async () => {
    const first = await fileOf(today());
    const later = await creditedSell(ada, 0.0026);
    const again = await fileOf(today());
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(await payoutsOf(later)).toEqual([]);
    expect((await summaryOf(today())).json()).toMatchObject({ downloaded: true, entryCount: 1 });
    // Tomorrow's file takes it; today's stays as it was.
    const [stored] = await t.database.db.select().from(achFiles).where(eq(achFiles.businessDay, today()));
    expect(stored?.contents).toBe(first.body);
  });

  it('gives two staff downloading at once one file, and each payout once', async () => {
    const day = bankDayAt(new Date(Date.now() - 5 * 86_400_000));
    const due = await creditedSell(bob, 0.0027);
    await depositSeenDaysAgo(due, 6);
    const answers = await Promise.all(Array.from({ length: 6 }, () => fileOf(day)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(entryLines(answers[0]!.body)).toHaveLength(1);
    expect(await payoutsOf(due)).toHaveLength(1);
    expect(
      await t.database.db.select().from(achFileEntries).where(eq(achFileEntries.orderId, due)),
    ).toHaveLength(1);
  });

  it('answers an empty day with a valid empty file and stores nothing', async () => {
    const empty = await fileOf('2020-01-02');
    expect(empty.statusCode).toBe(200);
    const lines = empty.body.split('\n').slice(0, -1);
    expect(lines).toHaveLength(10);
    expect(lines.map((line) => line[0]).join('')).toBe('1999999999');
    expect(lines[1]!.slice(1, 21)).toBe('00000000000100000000');
    expect(await writtenByNach2(readNachaFile(empty.body))).toEqual(lines);
    expect(await t.database.db.select().from(achFiles).where(eq(achFiles.businessDay, '2020-01-02'))).toEqual(
      [],
    );
  });

  it('settles a filed payout when staff record the bank’s reference, and the order completes', async () => {
    const due = await creditedSell(ada, 0.0028);
    await depositSeenDaysAgo(due, 8);
    expect((await fileOf(bankDayAt(new Date(Date.now() - 7 * 86_400_000)))).statusCode).toBe(200);
    const paid = await t.request({
      method: 'POST',
      url: `/api/admin/orders/${due}/payout-usd`,
      headers: admin.auth,
      payload: { reference: 'ACH-CONFIRMED-1' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const payouts = await payoutsOf(due);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({
      state: 'settled',
      sender: 'nacha-file',
      reference: 'ACH-CONFIRMED-1',
    });
    expect((await orderRow(due)).status).toBe('completed');
  });

  it('is for staff only: 401 signed out, 403 for a customer', async () => {
    expect((await fileOf(today(), null)).statusCode).toBe(401);
    expect((await fileOf(today(), ada)).statusCode).toBe(403);
    const summary = await t.request({
      method: 'GET',
      url: `/api/admin/payouts/ach-file/summary?date=${today()}`,
      headers: ada.auth,
    });
    expect(summary.statusCode).toBe(403);
  });

  it('refuses a date that is not a day, or a later day, with 400 and what to send', async () => {
    for (const date of ['2026-02-30', 'tomorrow', '2026-1-05', '']) {
      const answer = await fileOf(date);
      expect(answer.statusCode, date).toBe(400);
      expect(answer.json().message).toBe(ACH_FILE_MESSAGES.badDate);
    }
    const later = await fileOf(bankDayAt(new Date(Date.now() + 2 * 86_400_000)));
    expect(later.statusCode).toBe(400);
    expect(later.json().message).toBe(ACH_FILE_MESSAGES.futureDate);
    const missing = await t.request({
      method: 'GET',
      url: '/api/admin/payouts/ach-file',
      headers: admin.auth,
    });
    expect(missing.statusCode).toBe(400);
  });
});
