// The ledger read back after the scenarios: nothing lost, nothing twice. The outbox drained, the
// deposit credited once, every notice delivered once, the WebSocket clients caught up, and the
// retrying client saw no 5xx.
import { WebSocket } from 'ws';
import { check, scratch, waitFor } from '../harness.mjs';
import { base, get, traffic } from '../http.mjs';

/** The outbox, the deposits and the e-mail and SMS notices. */
export async function nothingLostOrDoubled(maths, { staff, sell, sent, deposit }) {
  const { db } = scratch;
  let outbox = 'no answer';
  const drained = await waitFor(
    60_000,
    async () => {
      const answer = await get('/api/admin/outbox', staff);
      outbox = answer;
      if (answer.status !== 200) return false;
      outbox = answer.body;
      const parked = Array.isArray(outbox.failed) ? outbox.failed.length : outbox.failed;
      return outbox.pending === 0 && parked === 0;
    },
    500,
  );
  check(
    'the outbox has nothing pending or failed (GET /api/admin/outbox)',
    Boolean(drained),
    JSON.stringify(outbox),
  );

  // --- Losses and duplicates, read from the database ---
  const { rows: depositRows } = await db.query(
    'select txid, vout, count(*)::int as n, sum(value_sats)::text as sats from deposits group by txid, vout',
  );
  const credited = depositRows.find((row) => row.txid === sent.txid);
  check(
    'the deposit is credited once (one deposits row for its txid:vout, the amount sent)',
    depositRows.every((row) => row.n === 1) &&
      credited?.n === 1 &&
      BigInt(credited.sats) === maths.btcNumberToSats(deposit.amount),
    JSON.stringify(depositRows),
  );
  const { rows: toProcessing } = await db.query(
    "select count(*)::int as n from order_events where order_id = $1 and to_status = 'processing'",
    [sell._id],
  );
  check('the sell moved to processing once', toProcessing[0].n === 1, `${toProcessing[0].n} events`);

  const { rows: notDelivered } = await db.query(
    "select event_key, channel, recipient, status, attempts from outbox_events where status <> 'delivered'",
  );
  check('every outbox row is delivered', notDelivered.length === 0, JSON.stringify(notDelivered));
  // Delivered once: each e-mail and SMS the outbox holds is in the demo sink exactly as many times as
  // the outbox holds it (two events may carry the same text), and the sink has no other notice.
  // One-time codes are sent inline, not through the outbox, and carry a code.
  const { rows: messageCounts } = await db.query(
    `select coalesce(e.channel, m.channel) as channel, coalesce(e.recipient, m.to) as recipient,
            coalesce(e.text, m.text) as text, coalesce(e.n, 0) as events, coalesce(m.n, 0) as copies
       from (select channel, recipient,
                    -- A link is stored as a path and sent joined to PUBLIC_URL, after the text.
                    (payload->>'text') || coalesce(E'\n\n' || (payload->'link'->>'label') || ': ' || $1::text
                      || (payload->'link'->>'path'), '') as text,
                    count(*)::int as n
               from outbox_events where channel in ('email', 'sms') group by 1, 2, 3) e
       full join (select channel, "to", text, count(*)::int as n
                    from outbox_messages where code is null group by 1, 2, 3) m
         on m.channel = e.channel and m.to = e.recipient and m.text = e.text`,
    [base()],
  );
  const notices = messageCounts.reduce((sum, row) => sum + row.events, 0);
  const mismatched = messageCounts.filter((row) => row.events !== row.copies);
  check(
    `every e-mail and SMS notice (${notices}) reached the demo sink once, none twice, none unasked`,
    notices >= 6 && mismatched.length === 0,
    JSON.stringify(mismatched, null, 1),
  );
}

/** The realtime clients: reconnected, up to date, no event twice. */
export async function socketsCaughtUp({ buyer, seller, buy, sell, buyerSocket, sellerSocket }) {
  const { db } = scratch;
  // --- The WebSocket clients ---
  const socketCheck = await waitFor(10_000, async () => {
    const sellerView = sellerSocket.orders.get(sell._id);
    const buyerView = buyerSocket.orders.get(buy._id);
    return sellerView?.status === 'completed' && buyerView?.status === 'completed';
  });
  const drops = sellerSocket.closes.length + buyerSocket.closes.length;
  check(
    `the WebSockets dropped with their processes and reconnected (${drops} drops, ${buyerSocket.readies + sellerSocket.readies - 2} reconnections)`,
    drops >= 1 &&
      buyerSocket.readies === buyerSocket.closes.length + 1 &&
      sellerSocket.readies === sellerSocket.closes.length + 1 &&
      buyerSocket.socket.readyState === WebSocket.OPEN &&
      sellerSocket.socket.readyState === WebSocket.OPEN,
    `buyer closes ${buyerSocket.closes} readies ${buyerSocket.readies} failed attempts ${buyerSocket.failedAttempts}; ` +
      `seller closes ${sellerSocket.closes} readies ${sellerSocket.readies} failed attempts ${sellerSocket.failedAttempts}`,
  );
  check(
    'the reconnected clients are up to date (both orders completed, as the API says)',
    Boolean(socketCheck),
    `buyer sees ${buyerSocket.orders.get(buy._id)?.status}, seller sees ${sellerSocket.orders.get(sell._id)?.status}`,
  );
  // No realtime event reached a client more often than it was sent. A row delivered at its first try
  // was published once. A row tried again (its deliverer was killed after publishing, before recording
  // the delivery, and the claim lease ran out) may have been published once per try: realtime delivery
  // is at least once, which the web app tolerates by reading the orders again on every event. Those
  // are counted and shown, not failed.
  const eventKey = (event) =>
    JSON.stringify([
      event.type,
      event.payload._id ?? event.payload.order?._id ?? null,
      event.payload.order?.status ?? event.payload.status ?? null,
      event.payload.order?.confirmations ?? null,
      event.payload.txn ?? event.payload.order?.txn ?? null,
    ]);
  const repeated = [];
  let retriedRepeats = 0;
  for (const [label, customer, socket] of [
    ['buyer', buyer, buyerSocket],
    ['seller', seller, sellerSocket],
  ]) {
    const { rows } = await db.query(
      "select payload, attempts from outbox_events where channel = 'realtime' and recipient = $1 and status = 'delivered'",
      [customer.userId],
    );
    const received = socket.events.map(eventKey);
    for (const key of new Set(received)) {
      const times = received.filter((k) => k === key).length;
      const sent = rows.filter((row) => eventKey(row.payload) === key);
      const once = sent.length;
      const atMost = sent.reduce((sum, row) => sum + row.attempts, 0);
      if (times > atMost)
        repeated.push(
          `${label} got ${key} ${times} times; the outbox holds it ${once} times (${atMost} tries)`,
        );
      else if (times > once) retriedRepeats += times - once;
    }
  }
  check(
    `no realtime event reached a client twice${retriedRepeats ? ` (${retriedRepeats} repeat(s) of deliveries retried after the kill)` : ''}`,
    repeated.length === 0,
    repeated.join('\n'),
  );
  const afterDrop =
    sellerSocket.events.some(
      (event) => event.type === 'order-updated' && event.payload.order.status === 'completed',
    ) ||
    buyerSocket.events.some(
      (event) => event.type === 'order-updated' && event.payload.order.status === 'completed',
    );
  check('events published after the kills reach the reconnected sockets', afterDrop);
}

/** The retrying client, stopped, saw no 5xx in the whole run. */
export async function no5xx({ stopReader }) {
  await stopReader();
  check(
    `the retrying client saw no 5xx (${traffic.gets} GETs, ${traffic.retries} retries, ${traffic.posts} POSTs)`,
    traffic.fiveXX.length === 0,
    traffic.fiveXX.slice(0, 20).join('\n'),
  );
}
