// Instant sell payouts under kill -9 of the worker (docs/design.md, "Instant payouts"): sells with
// `method: "instant"` to banks on RTP, deposited on the demo chain; the worker (deposit watcher, instant
// payouts, the demo bank's settlement) is killed again and again between claiming, sending and
// recording. Each order must have exactly one transfer at the demo bank and one settled payout.
import { setTimeout as sleep } from 'node:timers/promises';
import { check, scratch, waitFor } from '../harness.mjs';
import { post } from '../http.mjs';
import { establishedCustomer, orderOf, placeSell } from '../customers.mjs';

/** Checksum-valid and ending in an even digit: the demo bank says it is on RTP and FedNow. */
const INSTANT_ROUTING = '022000020';
const SELLS_EACH = 3;

export const instantPayouts = {
  async prepare() {
    const sellers = [];
    for (const index of [1, 2]) {
      const accountNumber = `${index}${String(Date.now()).slice(-9)}`;
      const seller = await establishedCustomer(`instant-${index}`, {
        routing_number: INSTANT_ROUTING,
        account_number: accountNumber,
      });
      sellers.push({ ...seller, accountNumber });
    }
    return { sellers, sells: [] };
  },

  /** Each seller sells a few times; every deposit is sent, then one block confirms them all. */
  async drive(ctx, state) {
    for (let round = 0; round < SELLS_EACH; round += 1)
      for (const seller of state.sellers) {
        const sell = await placeSell(ctx, seller, 0.002 + round * 0.0005, 'instant');
        const { address, amount } = sell.walletAddress;
        await post('/api/dev/chain/send', { address, amount });
        state.sells.push({ seller, sell });
        await sleep(250);
      }
    await post('/api/dev/chain/mine', { blocks: 1 });
  },

  async verify(ctx, state) {
    const completed = await waitFor(
      60_000,
      async () => {
        for (const { seller, sell } of state.sells)
          if ((await orderOf(seller, sell._id))?.status !== 'completed') return false;
        return true;
      },
      500,
    );
    const ids = state.sells.map(({ sell }) => sell._id);
    const { rows } = await scratch.db.query(
      `select o.id, o.status, o.value_cents::text as cents,
              (select count(*)::int from demo_bank_transfers t where t.idempotency_key = o.id::text) as by_key,
              (select count(*)::int from demo_bank_transfers t
                 where t.direction = 'outbound' and t.description = 'OffZero sell ' || left(o.id::text, 8)) as by_order,
              (select count(*)::int from payouts p where p.order_id = o.id) as payouts,
              (select count(*)::int from payouts p where p.order_id = o.id and p.state = 'settled') as settled
         from orders o where o.id = any($1::uuid[])`,
      [ids],
    );
    const { rows: perAccount } = await scratch.db.query(
      `select counterparty_account_number as account, count(*)::int as n,
              sum(amount_cents)::text as cents, count(*) filter (where status = 'settled')::int as settled
         from demo_bank_transfers where direction = 'outbound' and counterparty_account_number = any($1)
        group by 1`,
      [state.sellers.map((seller) => seller.accountNumber)],
    );
    const wrong = rows.filter(
      (row) => row.by_key !== 1 || row.by_order !== 1 || row.payouts !== 1 || row.settled !== 1,
    );
    const accountsWrong = state.sellers.filter((seller) => {
      const mine = state.sells.filter((entry) => entry.seller === seller);
      const cents = rows
        .filter((row) => mine.some((entry) => entry.sell._id === row.id))
        .reduce((sum, row) => sum + BigInt(row.cents), 0n);
      const account = perAccount.find((row) => row.account === seller.accountNumber);
      return account?.n !== mine.length || account.settled !== mine.length || BigInt(account.cents) !== cents;
    });
    check(
      `each of ${ids.length} instant sells sent exactly one bank transfer (by its order id and by its account, the amount owed) and settled one payout`,
      rows.length === ids.length && wrong.length === 0 && accountsWrong.length === 0,
      JSON.stringify({ wrong, perAccount }, null, 1),
    );
    check(
      'every instant sell completed by itself',
      Boolean(completed) && rows.every((row) => row.status === 'completed'),
      JSON.stringify(rows.map((row) => [row.id.slice(0, 8), row.status])),
    );
  },
};
