// The production layout the scale test runs: a throwaway PostgreSQL database, migrated once, two
// `web` processes and one `worker` on it and on Redis, and nginx in front; then its tear-down.
import { rmSync } from 'node:fs';
import pg from 'pg';
import {
  check,
  children,
  freePort,
  killAll,
  loadQuoteMaths,
  makeScratchFolder,
  migrateJs,
  note,
  ports,
  scratch,
  spawnChild,
  startProcess,
  waitReady,
  within,
} from './harness.mjs';
import { getOk, useCsrf } from './http.mjs';
import { ensureNginx, startNginx } from './nginx.mjs';

const tearDownSteps = [];
/** Runs `step` at tear-down (a background loop or socket a scenario left running after a failure). */
export const atTearDown = (step) => tearDownSteps.push(step);

/** Starts everything; answers the shared quote maths, bundled from TypeScript. */
export async function startLayout() {
  makeScratchFolder();
  ensureNginx();
  const maths = await loadQuoteMaths(scratch.tmp);
  await scratch.admin.connect();
  await scratch.admin.query(`create database "${scratch.databaseName}"`);
  for (const name of Object.keys(ports)) ports[name] = await freePort();

  const migrate = spawnChild(
    process.execPath,
    [migrateJs],
    { PATH: process.env.PATH, DATABASE_URL: scratch.databaseUrl, DATA_DIR: scratch.dataDir },
    'migrate',
  );
  const migrated = await within(60_000, migrate.exited);
  if (migrated === 'timeout' || migrated.code !== 0) throw new Error(`migrate failed: ${migrate.output}`);

  // Three OS processes at once, as systemd starts them.
  for (const name of ['web1', 'web2', 'worker']) startProcess(name);
  await Promise.all(['web1', 'web2', 'worker'].map((name) => waitReady(name)));
  note('two web processes and a worker are ready');

  await startNginx();
  check("nginx with the kit's rules serves the app from two web processes", true);

  scratch.db = new pg.Client({ connectionString: scratch.databaseUrl });
  await scratch.db.connect();
  useCsrf((await getOk('/api/csrf'))._csrf);
  return maths;
}

/** Reports a run that threw, with the tail of each process's output. */
export function reportCrash(error) {
  check(
    'the scale test itself ran',
    false,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  for (const running of children)
    if (running.label !== 'migrate')
      console.log(`  -- ${running.label} output (tail):\n${running.output.slice(-1500)}`);
}

/** Stops everything and drops the database (SCALE_KEEP_DATABASE=1 keeps it for a look). */
export async function tearDown() {
  for (const step of tearDownSteps) await within(5000, Promise.resolve(step())).catch(() => undefined);
  killAll();
  await within(5000, Promise.all([...children].map((running) => running.exited)));
  await scratch.db?.end().catch(() => undefined);
  const { admin, databaseName, databaseUrl, tmp } = scratch;
  // SCALE_KEEP_DATABASE=1 keeps it for a look after a failure.
  if (process.env.SCALE_KEEP_DATABASE === '1') console.log(`  .. database kept: ${databaseUrl}`);
  else await admin.query(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
