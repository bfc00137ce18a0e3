// A PayPal buy across the web processes: captured once though sent to both, refunded once, its
// refund's webhook verified and applied by the worker once.
import { check, scratch, waitFor } from '../harness.mjs';
import { post, processOrigin, send } from '../http.mjs';
import { placeBuy } from '../customers.mjs';

// A PayPal buy across the processes: its payment created through web1, approved in the demo sandbox
// through web2, captured through both at the same moment; then refunded in the sandbox through web2,
// whose webhook the worker verifies again from storage and applies (web processes run no jobs).
export async function paypalAcrossProcesses(maths, { buyer, settings }) {
  const { db } = scratch;
  const paypalBuy = await placeBuy({ maths, settings }, buyer, 120);
  const { id: paypalOrderId } = await post(
    '/api/payments/paypal/orders',
    { orderId: paypalBuy._id },
    buyer.token,
    processOrigin('web1'),
  );
  await post(`/api/dev/paypal/orders/${paypalOrderId}/approve`, {}, buyer.token, processOrigin('web2'));
  const captures = await Promise.all(
    ['web1', 'web2'].map((name) =>
      send(
        `/api/payments/paypal/orders/${paypalOrderId}/capture`,
        { orderId: paypalBuy._id },
        buyer.token,
        processOrigin(name),
      ),
    ),
  );
  const captureStatuses = captures.map((answer) => answer.status).sort();
  const { rows: sandboxRows } = await db.query(
    'select status, capture_id, value_cents::text as cents from demo_paypal_orders where reference_id = $1',
    [paypalBuy._id],
  );
  const { rows: paidRows } = await db.query(
    `select o.status, o.payment_method, o.paypal_capture_id,
            (select count(*)::int from order_events e where e.order_id = o.id and e.to_status = 'processing') as moves
       from orders o where o.id = $1`,
    [paypalBuy._id],
  );
  const paid = paidRows[0];
  check(
    'a PayPal payment created on web1 is approved on web2 and captured once though sent to both',
    captureStatuses.join(',') === '200,409' &&
      sandboxRows.length === 1 &&
      sandboxRows[0].status === 'COMPLETED' &&
      BigInt(sandboxRows[0].cents) === maths.usdNumberToCents(120) &&
      paid?.status === 'processing' &&
      paid.payment_method === 'paypal' &&
      paid.paypal_capture_id === sandboxRows[0].capture_id &&
      paid.moves === 1,
    JSON.stringify({ captures, sandboxRows, paid }),
  );

  const captureId = sandboxRows[0]?.capture_id;
  await post(`/api/dev/paypal/captures/${captureId}/refund`, {}, undefined, processOrigin('web2'));
  const refundAgain = await send(
    `/api/dev/paypal/captures/${captureId}/refund`,
    {},
    undefined,
    processOrigin('web1'),
  );
  const reversed = await waitFor(20_000, async () => {
    const { rows } = await db.query('select flag from orders where id = $1', [paypalBuy._id]);
    return rows[0]?.flag === 'payment_reversed';
  });
  const { rows: deliveries } = await db.query(
    "select status, attempts, last_error from webhook_deliveries where provider = 'paypal'",
  );
  const { rows: reversals } = await db.query(
    "select count(*)::int as n from order_events where order_id = $1 and reason = 'PayPal payment reversed'",
    [paypalBuy._id],
  );
  const { rows: refunds } = await db.query(
    'select count(*)::int as n from demo_paypal_orders where capture_id = $1 and refund_id is not null',
    [captureId],
  );
  check(
    "the PayPal refund's webhook is verified and applied by the worker at its first try, once; a second refund is refused",
    Boolean(reversed) &&
      refundAgain.status === 409 &&
      deliveries.length === 1 &&
      deliveries[0].status === 'processed' &&
      deliveries[0].attempts === 1 &&
      reversals[0].n === 1 &&
      refunds[0].n === 1,
    JSON.stringify({ reversed, refundAgain, deliveries, reversals: reversals[0], refunds: refunds[0] }),
  );
}
