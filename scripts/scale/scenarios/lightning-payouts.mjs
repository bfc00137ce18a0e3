// Lightning payouts under kill -9 of the worker (docs/design.md, "Lightning"): buys paid out to BOLT11
// invoices of the demo wallet, paid by Zelle and confirmed by the operator while the worker is killed
// again and again (and web2 once, as it confirms). Each invoice must be paid by the demo node exactly
// once (its own table of outgoing payments) and each order have one settled payout, read through the
// order API.
import { setTimeout as sleep } from 'node:timers/promises';
import { check, kill9, note, scratch, startProcess, waitFor, waitReady } from '../harness.mjs';
import { post, processOrigin, send } from '../http.mjs';
import { waitRoutedTo } from '../nginx.mjs';
import { claimPaidByZelle, establishedCustomer, orderOf, placeBuy } from '../customers.mjs';

const BUYS_EACH = 3;

/**
 * The payout's state as the customer sees it: the order's `lightningPayout.status`, or, from a server
 * that does not send that field, the payout row (the `payouts` table with its Lightning details).
 */
async function payoutStatus(buyer, orderId) {
  const order = await orderOf(buyer, orderId);
  if (order?.lightningPayout) return order.lightningPayout.status;
  const { rows } = await scratch.db.query(
    "select state from payouts where order_id = $1 and rail = 'lightning' order by created_at desc limit 1",
    [orderId],
  );
  return rows[0]?.state ?? null;
}

const markPaid = (staff, order, origin) =>
  send(`/api/admin/orders/${order._id}/mark-paid`, { note: 'Seen in the Zelle inbox' }, staff, origin);

/**
 * The operator confirms the payments: half through nginx; the other half at once, straight to web2,
 * which is killed (kill -9) as the first answer comes back, so some confirmations are cut mid-way. A
 * confirmation the kill cut before it committed is made again through nginx, as the operator would.
 * The payouts themselves are sent by the worker's reconcile job (a confirmation changes no status, so
 * the confirming process does not send them), under the worker's kills. Answers how many answers the
 * kill cut.
 */
async function markPaidCuttingWeb2(staff, buys) {
  const half = Math.floor(buys.length / 2);
  for (const { order } of buys.slice(0, half)) await markPaid(staff, order);
  const answers = buys
    .slice(half)
    .map(({ order }) => markPaid(staff, order, processOrigin('web2')).catch(() => ({ status: 'cut' })));
  await Promise.race(answers);
  await kill9('web2');
  const cut = (await Promise.all(answers)).filter((answer) => answer.status !== 200).length;
  startProcess('web2');
  await waitReady('web2');
  await waitRoutedTo('web2');
  note(`web2 killed (kill -9) as it confirmed ${buys.length - half} Lightning buys (${cut} answers cut)`);
  for (const { order } of buys.slice(half)) {
    const { rows } = await scratch.db.query('select payment_confirmed_at from orders where id = $1', [
      order._id,
    ]);
    if (!rows[0]?.payment_confirmed_at) await markPaid(staff, order);
  }
  return cut;
}

export const lightningPayouts = {
  async prepare() {
    const buyers = [];
    for (const index of [1, 2]) buyers.push(await establishedCustomer(`lightning-${index}`));
    return { buyers, buys: [] };
  },

  async drive(ctx, state) {
    const { buyers, buys } = state;
    for (let round = 0; round < BUYS_EACH; round += 1)
      for (const buyer of buyers) {
        // An invoice without an amount: paid the order's satoshis.
        const invoice = await post('/api/dev/lightning/invoice', {});
        const order = await placeBuy(ctx, buyer, 30 + round, { walletAddress: invoice.invoice });
        await claimPaidByZelle(buyer, order, `ZL-LN-${order._id.slice(0, 8)}`);
        buys.push({ buyer, order, paymentHash: invoice.paymentHash });
        await sleep(200);
      }
    state.cut = await markPaidCuttingWeb2(ctx.staff, buys);
  },

  async verify(ctx, { buys }) {
    const settled = await waitFor(
      60_000,
      async () => {
        for (const { buyer, order } of buys)
          if ((await payoutStatus(buyer, order._id)) !== 'settled') return false;
        return true;
      },
      500,
    );
    const statuses = [];
    for (const { buyer, order } of buys) statuses.push(await payoutStatus(buyer, order._id));
    const { rows } = await scratch.db.query(
      `select h.hash,
              (select count(*)::int from demo_lightning_payments p where p.payment_hash = h.hash) as attempts,
              (select count(*)::int from demo_lightning_payments p
                 where p.payment_hash = h.hash and p.status = 'settled') as paid,
              (select i.received_sats::text from demo_lightning_invoices i where i.payment_hash = h.hash) as received
         from unnest($1::text[]) as h(hash)`,
      [buys.map((buy) => buy.paymentHash)],
    );
    const { rows: orders } = await scratch.db.query(
      `select o.id::text as id, o.status, o.amount_sats::text as sats,
              (select count(*)::int from payouts p where p.order_id = o.id) as payouts,
              coalesce((select min(p.created_at) from payouts p where p.order_id = o.id) >= o.payment_confirmed_at,
                       false) as after_paid
         from orders o where o.id = any($1::uuid[])`,
      [buys.map((buy) => buy.order._id)],
    );
    const wrongPayments = rows.filter((row, index) => {
      const order = orders.find((one) => one.id === buys[index].order._id);
      return row.attempts !== 1 || row.paid !== 1 || row.received !== order?.sats;
    });
    check(
      `each of ${buys.length} Lightning invoices is paid by the node exactly once, the order's satoshis`,
      rows.length === buys.length && wrongPayments.length === 0,
      JSON.stringify({ wrongPayments, orders }, null, 1),
    );
    check(
      `each of ${buys.length} Lightning buys has one payout, settled, sent after the operator confirmed the payment, and is completed`,
      Boolean(settled) &&
        statuses.every((status) => status === 'settled') &&
        orders.length === buys.length &&
        orders.every((row) => row.payouts === 1 && row.after_paid && row.status === 'completed'),
      JSON.stringify({ statuses, orders }, null, 1),
    );
  },
};
