import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Milliseconds until `ask` answers what `done` accepts, asked every 25 ms; fails past `limitMs` with what
 * the last answer was (`describe`). For "takes effect everywhere within a second" across processes.
 */
export async function msUntil<T>(
  ask: () => Promise<T>,
  done: (answer: T) => boolean,
  describe: (answer: T) => string,
  limitMs = 2_000,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await ask();
    if (done(answer)) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${describe(answer)} after ${limitMs} ms`);
    await sleep(25);
  }
}
