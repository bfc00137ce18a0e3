// Recurring-buy runs under kill -9 of the worker (docs/design.md, "Recurring buys"): plans whose first
// run the scheduler makes in the worker, and further runs made by the demo's "run now", while the
// worker is killed again and again; the demo bank's debits are then settled. Each run must have one
// ACH debit (its id the idempotency key), one order, and, once paid, one payout in the next batch.
import { setTimeout as sleep } from 'node:timers/promises';
import { check, scratch, waitFor } from '../harness.mjs';
import { getOk, post, send } from '../http.mjs';
import { confirmPayoutAddress, establishedCustomer, WALLET } from '../customers.mjs';

const RUNS_NOW_EACH = 3;
/** The bank's day `days` from today, as the plans count days (America/New_York), YYYY-MM-DD. */
function bankDayFromToday(days) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const runsOf = async (customer) => (await getOk('/api/plans', customer.token)).plans[0]?.runs ?? [];

/** A confirmed address-book entry of the customer (the wallet they saved), added if they have none. */
async function confirmedEntry(customer) {
  let { payoutAddresses } = await getOk('/api/payout-addresses', customer.token);
  if (payoutAddresses.length === 0)
    await post('/api/payout-addresses', { label: 'Cold wallet', address: WALLET }, customer.token);
  if (!payoutAddresses.some((entry) => entry.status !== 'unconfirmed')) await confirmPayoutAddress(customer);
  ({ payoutAddresses } = await getOk('/api/payout-addresses', customer.token));
  const entry = payoutAddresses.find((one) => one.status !== 'unconfirmed');
  if (!entry) throw new Error(`${customer.email} has no confirmed payout address`);
  return entry;
}

/** Settles every debit of the account still on its way at the demo bank; answers how many. */
async function settleDebits(accountNumber) {
  const { transfers } = await getOk(`/api/dev/bank/transfers?accountNumber=${accountNumber}`);
  let settled = 0;
  for (const transfer of transfers)
    if (transfer.kind === 'ach_debit' && transfer.status === 'submitted') {
      // 409 when the bank settled it meanwhile (another pass): nothing to do.
      const { status } = await send(`/api/dev/bank/transfers/${transfer.id}/settle`, {});
      if (status === 200) settled += 1;
    }
  return settled;
}

export const planRuns = {
  /**
   * Three plans: two start next week, so only "run now" makes their runs; the third starts today, so
   * the scheduler in the worker makes its first run, whenever the worker lives long enough.
   */
  async prepare() {
    const savers = [];
    for (const index of [1, 2, 3]) {
      const accountNumber = `7${index}${String(Date.now()).slice(-9)}`;
      const saver = await establishedCustomer(`plan-${index}`, { account_number: accountNumber });
      const entry = await confirmedEntry(saver);
      const byScheduler = index === 3;
      const { plan } = await post(
        '/api/plans',
        {
          amountUsd: 25 + index,
          frequency: 'weekly',
          firstRunOn: bankDayFromToday(byScheduler ? 0 : 7),
          payoutAddressId: entry.id,
          authorization: { accepted: true },
        },
        saver.token,
      );
      savers.push({ ...saver, accountNumber, planId: plan.id, runs: byScheduler ? 1 : RUNS_NOW_EACH });
    }
    return { savers };
  },

  async drive(ctx, { savers }) {
    for (let round = 0; round < RUNS_NOW_EACH; round += 1)
      for (const saver of savers.filter((one) => one.runs === RUNS_NOW_EACH)) {
        await post(`/api/dev/plans/${saver.planId}/run`, {});
        await sleep(300);
      }
  },

  async verify(ctx, { savers }) {
    // A run left claimed by a killed worker is finished by the run job once its lease ends (a minute).
    const paid = await waitFor(
      120_000,
      async () => {
        let done = true;
        for (const saver of savers) {
          await settleDebits(saver.accountNumber);
          const runs = await runsOf(saver);
          if (runs.length !== saver.runs || runs.some((run) => run.status !== 'paid')) done = false;
        }
        return done;
      },
      1000,
    );
    const { rows } = await scratch.db.query(
      `select r.id, r.status, r.user_id::text as user_id, r.order_id::text as order_id,
              (select count(*)::int from demo_bank_transfers t where t.idempotency_key = r.id::text) as debits
         from plan_runs r where r.plan_id = any($1::uuid[])`,
      [savers.map((saver) => saver.planId)],
    );
    const { rows: perCustomer } = await scratch.db.query(
      `select u.id::text as user_id, (select count(*)::int from orders o where o.user_id = u.id) as orders,
              (select count(*)::int from demo_bank_transfers t where t.kind = 'ach_debit'
                  and t.counterparty_account_number = ($2::text[])[array_position($1::uuid[], u.id)]) as debits
         from users u where u.id = any($1::uuid[])`,
      [savers.map((saver) => saver.userId), savers.map((saver) => saver.accountNumber)],
    );
    const expectedOf = (userId) => savers.find((saver) => saver.userId === userId)?.runs;
    const orderIds = rows.map((row) => row.order_id);
    check(
      `each of ${rows.length} plan runs (${savers.map((saver) => saver.runs).join(' + ')}, one by the scheduler) has one ACH debit keyed by its id and one order, and is paid`,
      Boolean(paid) &&
        rows.length === savers.reduce((sum, saver) => sum + saver.runs, 0) &&
        rows.every((row) => row.debits === 1 && row.order_id && row.status === 'paid') &&
        new Set(orderIds).size === orderIds.length &&
        perCustomer.every((row) => row.orders === expectedOf(row.user_id) && row.debits === row.orders),
      JSON.stringify({ rows, perCustomer }, null, 1),
    );
    const batch = await payOutInBatch(ctx.staff);
    const { rows: payouts } = await scratch.db.query(
      'select order_id::text as order_id, count(*)::int as n from payouts where order_id = any($1::uuid[]) group by 1',
      [orderIds],
    );
    const outputs = batch.outputs?.map((output) => output.orderId) ?? [];
    check(
      "each paid run's buy has one payout, in the next batch, once",
      orderIds.every(
        (id) =>
          outputs.filter((orderId) => orderId === id).length === 1 &&
          payouts.find((row) => row.order_id === id)?.n === 1,
      ),
      JSON.stringify({ batch, payouts }),
    );
  },
};

/**
 * The next payout batch, built, signed by the demo wallet and sent, as the operator does. Economy, as
 * an operator would choose for small buys: the demo's fee market is random, and at its standard top a
 * batch of seven small runs is over the 2% fee cap.
 */
async function payOutInBatch(staff) {
  const { batch } = await post('/api/admin/payouts/batches', { feeTier: 'economy' }, staff);
  const { psbt } = await post(`/api/dev/payouts/batches/${batch.id}/sign`, {}, staff);
  const signed = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt }, staff);
  return signed.batch ?? signed;
}
