// The first scenario: a Zelle buy and a sell paid on the demo chain by two customers, each with a
// WebSocket open, while web1, the worker and web2 are killed with SIGKILL and web1 is stopped by
// SIGTERM; both orders complete. Answers what the later checks read back.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  check,
  kill9,
  note,
  processes,
  readyStatus,
  ports,
  scratch,
  startProcess,
  waitFor,
  waitReady,
  within,
} from '../harness.mjs';
import { getOk, post } from '../http.mjs';
import {
  backgroundReader,
  confirmPayoutAddress,
  fileW9,
  logIn,
  makeTradeReady,
  orderOf,
  placeBuy,
  placeSell,
  register,
} from '../customers.mjs';
import { atTearDown } from '../layout.mjs';
import { waitRoutedTo } from '../nginx.mjs';
import { realtimeClient } from '../realtime.mjs';

export async function zelleBuyAndChainSell(maths) {
  // Two customers and the operator, while nothing is being killed (POSTs are not retried).
  const stamp = Date.now().toString(36);
  // 202-555-01xx style numbers: valid, never anyone's.
  const digits = () => `202555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  const buyer = await register(`scale-buyer-${stamp}@example.com`, `+1${digits()}`);
  const seller = await register(`scale-seller-${stamp}@example.com`, `+1${digits()}`);
  await makeTradeReady(buyer, `buyer-${stamp}@example.com`);
  await makeTradeReady(seller, `seller-${stamp}@example.com`);
  const staff = await logIn('admin@offzero.local');
  check('two customers register and an operator signs in through nginx', true);
  const stopReader = backgroundReader(() => [buyer, seller]);
  atTearDown(stopReader);

  const buyerSocket = realtimeClient(buyer);
  const sellerSocket = realtimeClient(seller);
  atTearDown(buyerSocket.stop);
  atTearDown(sellerSocket.stop);
  const socketsReady = await waitFor(10_000, async () => buyerSocket.readies > 0 && sellerSocket.readies > 0);
  check("both customers' WebSockets are open and authenticated", Boolean(socketsReady));

  // The buy, paid by Zelle.
  const { settings } = await getOk('/api/admin/settings', buyer.token);
  const buy = await placeBuy({ maths, settings }, buyer, 150);
  await confirmPayoutAddress(buyer);
  await post(
    '/api/order/update',
    {
      _id: buy._id,
      payment: { method: 'zelle', amount: 150, create_time: new Date().toISOString(), receiving_in: {} },
      status: 'processing',
    },
    buyer.token,
  );
  await post('/api/order/update', { _id: buy._id, bankTxn: `ZL-SCALE-${stamp}` }, buyer.token);

  // The sell, to be paid on the demo chain; a first sell needs the seller's Form W-9 on file.
  await fileW9(seller);
  const sell = await placeSell({ maths, settings }, seller, 0.004);
  note('a Zelle buy is paid and a sell waits for its deposit');

  // kill -9 the first web process mid-way: its sockets drop, nginx sends new requests to the other.
  await kill9('web1');
  note('web1 killed (kill -9)');
  await post(`/api/admin/orders/${buy._id}/mark-paid`, { note: 'Seen in the Zelle inbox' }, staff);
  const deposit = sell.walletAddress;
  const sent = await post('/api/dev/chain/send', { address: deposit.address, amount: deposit.amount });
  // kill -9 the worker while it delivers: its deposit watcher sees the payment within a second and
  // writes and delivers the notifications.
  const written = await waitFor(
    10_000,
    async () => {
      const { rows } = await scratch.db.query(
        "select count(*)::int as n from outbox_events where event_key like 'deposit-credit:%'",
      );
      return rows[0].n > 0;
    },
    10,
  );
  await kill9('worker');
  const { rows: atKill } = await scratch.db.query(
    "select status, attempts, count(*)::int as n from outbox_events where event_key like 'deposit-%' or event_key like 'order-event:%' group by 1, 2",
  );
  note(
    `worker killed (kill -9) ${written ? 'as its deposit notices were written' : 'before it saw the deposit'}; outbox ${JSON.stringify(atKill)}`,
  );
  startProcess('web1');
  await waitReady('web1');
  await post(`/api/admin/orders/${buy._id}/send-btc`, {}, staff);
  await sleep(1500);
  startProcess('worker');
  await waitReady('worker');
  note('web1 and the worker restarted');
  await waitRoutedTo('web1');
  note('nginx routes to web1 again');

  const seen = await waitFor(30_000, async () => (await orderOf(seller, sell._id))?.status === 'processing');
  check("the sell's deposit is seen after the worker's restart", Boolean(seen));
  // Then the second web process, so whichever held a socket has died once.
  await kill9('web2');
  note('web2 killed (kill -9)');
  await post('/api/dev/chain/mine', { blocks: 1 });
  const confirmed = await waitFor(30_000, async () => (await orderOf(seller, sell._id))?.confirmations >= 1);
  check('the deposit confirms while web2 is down', Boolean(confirmed));
  startProcess('web2');
  await waitReady('web2');
  await waitRoutedTo('web2');
  note('web2 restarted, nginx routes to it again');
  await post(`/api/admin/orders/${sell._id}/payout-usd`, { reference: `ZELLE-OUT-${stamp}` }, staff);

  await sigtermDrains();

  // Everything settles: orders complete, the outbox empties.
  const buyDone = await waitFor(20_000, async () => (await orderOf(buyer, buy._id))?.status === 'completed');
  const sellDone = await waitFor(
    20_000,
    async () => (await orderOf(seller, sell._id))?.status === 'completed',
  );
  check('the buy and the sell are completed', Boolean(buyDone && sellDone));
  return {
    stamp,
    buyer,
    seller,
    staff,
    settings,
    buy,
    sell,
    deposit,
    sent,
    buyerSocket,
    sellerSocket,
    stopReader,
  };
}

/** SIGTERM: readiness turns 503 (the drain) before the process exits, and the exit is clean. */
async function sigtermDrains() {
  const running = processes.web1;
  const statuses = [];
  let exitedAt = 0;
  void running.exited.then(() => (exitedAt = Date.now()));
  running.child.kill('SIGTERM');
  let first503At = 0;
  const deadline = Date.now() + 15_000;
  while (!exitedAt && Date.now() < deadline) {
    const status = await readyStatus(ports.web1).catch(() => 'refused');
    statuses.push(status);
    if (status === 503 && !first503At) first503At = Date.now();
    await sleep(50);
  }
  const exit = await within(15_000, running.exited);
  check(
    'readiness answers 503 after SIGTERM, before the process exits cleanly',
    first503At > 0 && exit !== 'timeout' && exit.code === 0,
    `statuses ${[...new Set(statuses)].join(',')}; exit ${JSON.stringify(exit)}\n${running.output.slice(-2000)}`,
  );
  startProcess('web1');
  await waitReady('web1');
  note('web1 stopped by SIGTERM and restarted');
}
