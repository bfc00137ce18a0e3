#!/usr/bin/env node
// `npm run test:scale`: the scale-out test. Runs the compiled server as a small production layout
// would: two `web` processes and one `worker` on one PostgreSQL database and one Redis, behind nginx
// with the kit's proxying rules (deploy/nginx/offzero.conf: least_conn, keep-alive upstream, the
// realtime upgrade, proxy_next_upstream). Through nginx it registers two customers, runs a buy paid by
// Zelle and a sell paid on the demo chain, keeps a WebSocket open per customer, `kill -9`s each web
// process mid-way and the worker during deliveries, restarts them, then runs a buy paid with the demo
// PayPal sandbox across both web processes and refunds it. Then, while the worker is `kill -9`ed
// again and again (each time the moment a payout or plan run is claimed and not yet recorded, when
// one is) and restarted, it runs instant sells, ACH buys paid by the demo bank's inbound credits (some
// sent twice; web2 killed as they arrive), Lightning buys (web2 killed as their payments are
// confirmed) and recurring-buy plan runs. It checks:
//   - every deposit credited once, every notification (e-mail, SMS, realtime) delivered once;
//   - every instant sell: one transfer at the demo bank, one settled payout, completed;
//   - every inbound credit: its trace credited once, to its own buy, marked paid once;
//   - every Lightning buy: its invoice paid by the demo node once, after the payment was confirmed;
//   - every plan run: one debit keyed by the run, one order, one payout in the next batch;
//   - the PayPal payment captured once, its refund's webhook verified and applied by the worker once;
//   - the WebSocket clients reconnected and are up to date;
//   - readiness turns 503 on SIGTERM before the process exits;
//   - a client that retries idempotent calls (GETs on 502/503/refused) never sees a 5xx.
// Builds nothing: run `npm run build` first (a server build older than its sources is refused).
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; a throwaway
// database is created and dropped; SCALE_KEEP_DATABASE=1 keeps it for a look) and Redis
// (TEST_REDIS_URL or REDIS_URL, default redis://127.0.0.1:6379), and nginx (installed with apt-get
// when /usr/sbin/nginx is missing). Only 127.0.0.1 is contacted. Ends with "scale: N passed, N failed".
//
// The harness is in scripts/scale/ (processes, nginx, the HTTP client, the customers), one file per
// scenario in scripts/scale/scenarios/.
import { check, elapsed, killAll, note, preflight, results, RUN_LIMIT_MS } from './scale/harness.mjs';
import { atTearDown, reportCrash, startLayout, tearDown } from './scale/layout.mjs';
import { paypalAcrossProcesses } from './scale/scenarios/paypal.mjs';
import { no5xx, nothingLostOrDoubled, socketsCaughtUp } from './scale/scenarios/delivered-once.mjs';
import { zelleBuyAndChainSell } from './scale/scenarios/zelle-and-chain.mjs';
import { instantPayouts } from './scale/scenarios/instant-payouts.mjs';
import { inboundCredits } from './scale/scenarios/inbound-credits.mjs';
import { lightningPayouts } from './scale/scenarios/lightning-payouts.mjs';
import { planRuns } from './scale/scenarios/plan-runs.mjs';
import { killRepeatedly, moneyInFlight } from './scale/kill-loop.mjs';

preflight();
/** How many times the worker is killed while the money scenarios run: at most, and at least. */
const KILLS = 12;
const MIN_KILLS = 8;
const watchdog = setTimeout(() => {
  console.log(`FAIL the run took longer than ${RUN_LIMIT_MS / 1000} s`);
  killAll();
  process.exit(1);
}, RUN_LIMIT_MS);
watchdog.unref();

try {
  const maths = await startLayout();
  const world = await zelleBuyAndChainSell(maths);
  await paypalAcrossProcesses(maths, world);
  await underWorkerKills({ maths, settings: world.settings, staff: world.staff });
  await nothingLostOrDoubled(maths, world);
  await socketsCaughtUp(world);
  await no5xx(world);
} catch (error) {
  reportCrash(error);
} finally {
  await tearDown();
}

/**
 * Money that leaves or arrives while the worker is killed: each scenario's customers are made first
 * (nothing killed), then every scenario drives its operations in turn while the worker is killed every
 * 300–700 ms of its life and restarted; then each checks, with the worker back, that every payout,
 * credit and run was applied once.
 */
async function underWorkerKills(ctx) {
  const scenarios = [
    ['instant payouts', instantPayouts],
    ['inbound credits', inboundCredits],
    ['Lightning payouts', lightningPayouts],
    ['plan runs', planRuns],
  ];
  const states = [];
  for (const [, scenario] of scenarios) states.push(await scenario.prepare(ctx));
  note('customers for instant payouts, inbound credits, Lightning payouts and plan runs are ready');
  const stopKills = killRepeatedly('worker', {
    times: KILLS,
    atLeast: MIN_KILLS,
    minMs: 300,
    maxMs: 1500,
    inFlight: moneyInFlight,
  });
  atTearDown(() => stopKills().catch(() => undefined));
  for (const [index, [name, scenario]] of scenarios.entries()) {
    await scenario.drive(ctx, states[index]);
    note(`${name} driven`);
  }
  const { kills, landed } = await stopKills();
  check(
    `the worker was killed (kill -9) ${kills} times while they ran, ${landed} of them with money claimed and not yet recorded`,
    kills >= MIN_KILLS,
  );
  for (const [index, [, scenario]] of scenarios.entries()) await scenario.verify(ctx, states[index]);
}

const { passed, failed } = results();
console.log(`  .. took ${elapsed()}`);
console.log(`scale: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
