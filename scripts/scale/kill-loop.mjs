// kill -9 on a schedule: a process killed every few hundred milliseconds of its life, restarted each
// time, a bounded number of times, while a scenario drives operations through the others.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { kill9, note, scratch, startProcess, waitReady } from './harness.mjs';
import { atTearDown } from './layout.mjs';
import { waitRoutedTo } from './nginx.mjs';

/**
 * Kills `name` up to `times` times, each after it has been ready for 300–700 ms (long enough to claim
 * and send, short enough to die between "sent" and "recorded"), and restarts it. With `inFlight` (a
 * probe of the database: money claimed, not yet recorded), each kill comes the moment the probe finds
 * some, if it does within that time. Answers a function that ends the loop once it made `atLeast`
 * kills, waits for the process to run again, and answers the kills and how many landed in flight.
 */
export function killRepeatedly(name, { times = 6, atLeast = 1, minMs = 300, maxMs = 700, inFlight } = {}) {
  let stopped = false;
  let kills = 0;
  let landed = 0;
  const loop = (async () => {
    while (!(stopped && kills >= atLeast) && kills < times) {
      const until = Date.now() + minMs + Math.floor(Math.random() * (maxMs - minMs));
      let found = false;
      while (!found && Date.now() < until) {
        found = Boolean(inFlight && (await inFlight().catch(() => false)));
        if (!found) await sleep(inFlight ? 5 : until - Date.now());
      }
      await kill9(name);
      kills += 1;
      if (found) landed += 1;
      startProcess(name);
      await waitReady(name);
      // nginx left a dead web process out for a while: wait until it is back in rotation.
      if (name !== 'worker') await waitRoutedTo(name);
    }
  })();
  // Kept for the caller: a failed restart ends the loop, and is thrown where the loop is awaited.
  const ended = loop.then(
    () => null,
    (error) => error,
  );
  let reported = false;
  return async () => {
    stopped = true;
    const error = await ended;
    if (error) throw error;
    if (!reported)
      note(
        `${name} killed (kill -9) and restarted ${kills} times${inFlight ? `, ${landed} with money in flight` : ''}`,
      );
    reported = true;
    return { kills, landed };
  };
}

let probe = null;
/**
 * Whether money is in flight: a payout claimed whose send is not yet recorded (an instant payout with
 * no transfer noted, a Lightning payout not yet settled or failed), or a plan run claimed and not yet
 * debited. Its own connection, so that it polls beside the scenarios' reads.
 */
export async function moneyInFlight() {
  if (!probe) {
    probe = new pg.Client({ connectionString: scratch.databaseUrl });
    atTearDown(() => probe.end());
    await probe.connect();
  }
  const { rows } = await probe.query(
    `select exists (select 1 from payouts
                     where state = 'submitted' and (reference is null or rail = 'lightning'))
            or exists (select 1 from plan_runs where status = 'claimed') as found`,
  );
  return rows[0].found;
}
