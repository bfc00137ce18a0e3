// kill -9 on a schedule: a process killed every few hundred milliseconds of its life, restarted each
// time, a bounded number of times, while a scenario drives operations through the others.
import { setTimeout as sleep } from 'node:timers/promises';
import { kill9, note, startProcess, waitReady } from './harness.mjs';
import { waitRoutedTo } from './nginx.mjs';

/**
 * Kills `name` up to `times` times, each after it has been ready for 300–700 ms (long enough to claim
 * and send, short enough to die between "sent" and "recorded"), and restarts it. Answers a function
 * that ends the loop once it made `atLeast` kills, waits for the process to run again, and answers how
 * many kills it made.
 */
export function killRepeatedly(name, { times = 6, atLeast = 1, minMs = 300, maxMs = 700 } = {}) {
  let stopped = false;
  let kills = 0;
  const loop = (async () => {
    while (!(stopped && kills >= atLeast) && kills < times) {
      await sleep(minMs + Math.floor(Math.random() * (maxMs - minMs)));
      await kill9(name);
      kills += 1;
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
    if (!reported) note(`${name} killed (kill -9) and restarted ${kills} times`);
    reported = true;
    return kills;
  };
}
