// Inbound bank credits under kill -9 of the worker and of a web process (docs/design.md, "Bank
// provider"): ACH buys paid into each customer's own account number by the demo bank, some credits
// sent twice with the same trace number (as a bank does when it heard no answer). Each order must be
// paid once and each trace credited once.
import { setTimeout as sleep } from 'node:timers/promises';
import { check, note, scratch, waitFor } from '../harness.mjs';
import { getOk, post, postRepeatable } from '../http.mjs';
import { establishedCustomer, orderOf, placeBuy } from '../customers.mjs';
import { killRepeatedly } from '../kill-loop.mjs';

export const inboundCredits = {
  async prepare(ctx) {
    const buys = [];
    for (const index of [1, 2]) {
      const buyer = await establishedCustomer(`inbound-${index}`);
      const { accountNumber } = await getOk('/api/funding', buyer.token);
      // Two buys each, of different amounts: a credit is matched to the unpaid buy of its amount.
      for (const usd of [101 + index, 133 + index]) {
        const order = await placeBuy(ctx, buyer, usd);
        buys.push({ buyer, order, accountNumber, trace: '' });
      }
      // One buy the customer said they paid by ACH; the other still pending (no "I have paid").
      await post(
        '/api/order/update',
        {
          _id: buys.at(-2).order._id,
          payment: {
            method: 'ach',
            amount: 101 + index,
            create_time: new Date().toISOString(),
            receiving_in: {},
          },
          status: 'processing',
        },
        buyer.token,
      );
    }
    return { buys, stamp: Date.now().toString(36).toUpperCase() };
  },

  /** The credits arrive while web2 is killed twice as well as the worker; every other one twice. */
  async drive(ctx, state) {
    const stopWebKills = killRepeatedly('web2', { times: 2, minMs: 500, maxMs: 1500 });
    for (const [index, buy] of state.buys.entries()) {
      buy.trace = `SCALE${state.stamp}${index}`;
      const credit = {
        accountNumber: buy.accountNumber,
        amount: buy.order.value,
        originatorName: 'ADA LOVELACE',
        rail: 'ach',
        traceNumber: buy.trace,
      };
      const copies = index % 2 === 0 ? 2 : 1;
      for (let copy = 0; copy < copies; copy += 1) {
        const { status, body } = await postRepeatable('/api/dev/bank/inbound', credit);
        if (status !== 200) throw new Error(`POST /api/dev/bank/inbound: ${status} ${JSON.stringify(body)}`);
        await sleep(200);
      }
      await sleep(400);
    }
    await stopWebKills();
  },

  async verify(ctx, state) {
    const paid = await waitFor(
      45_000,
      async () => {
        for (const { buyer, order, trace } of state.buys)
          if ((await orderOf(buyer, order._id))?.bankTxn !== trace) return false;
        return true;
      },
      500,
    );
    const traces = state.buys.map((buy) => buy.trace);
    const { rows } = await scratch.db.query(
      `select t.trace_number as trace,
              (select count(*)::int from demo_bank_transfers d
                 where d.trace_number = t.trace_number and d.direction = 'inbound') as sent,
              (select count(*)::int from bank_inbound_credits c where c.trace_number = t.trace_number) as credits,
              (select c.order_id::text from bank_inbound_credits c
                 where c.trace_number = t.trace_number and c.status = 'matched') as order_id
         from unnest($1::text[]) as t(trace_number)`,
      [traces],
    );
    const { rows: orders } = await scratch.db.query(
      `select o.id::text as id, o.status, o.bank_txn, o.payment_confirmed_at is not null as confirmed,
              (select count(*)::int from order_events e where e.order_id = o.id and e.reason like 'bank credit % matched') as steps,
              (select count(*)::int from order_events e where e.order_id = o.id and e.from_status = 'pending' and e.to_status = 'processing') as to_processing
         from orders o where o.id = any($1::uuid[])`,
      [state.buys.map((buy) => buy.order._id)],
    );
    const doubles = rows.filter((row) => row.sent === 2).length;
    note(
      `${rows.reduce((sum, row) => sum + row.sent, 0)} credits sent for ${rows.length} traces (${doubles} sent twice)`,
    );
    const badTraces = rows.filter(
      (row, index) => row.credits !== 1 || row.order_id !== state.buys[index].order._id,
    );
    check(
      `each of ${traces.length} bank traces is credited once, to its own buy, ${doubles} of them sent twice`,
      rows.length === traces.length && doubles >= 2 && badTraces.length === 0,
      JSON.stringify(badTraces, null, 1),
    );
    const badOrders = orders.filter(
      (row, _, all) =>
        all.length !== state.buys.length ||
        row.status !== 'processing' ||
        !row.confirmed ||
        row.steps !== 1 ||
        row.to_processing !== 1 ||
        row.bank_txn !== state.buys.find((buy) => buy.order._id === row.id)?.trace,
    );
    check(
      `each of ${orders.length} ACH buys is marked paid once, the trace as its reference, with no operator`,
      Boolean(paid) && badOrders.length === 0,
      JSON.stringify(badOrders.length ? badOrders : orders, null, 1),
    );
  },
};
