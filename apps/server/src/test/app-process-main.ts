/**
 * A server in a process of its own, started by app-process.ts: the same app as the tests build, on the
 * PostgreSQL database named by APP_PROCESS_DATABASE_URL, with APP_PROCESS_SETTINGS (JSON) over the
 * test configuration. Answers `{ ready: base URL }` over IPC once listening on 127.0.0.1; stops when
 * its parent sends `stop` or goes away.
 */
import { rmSync } from 'node:fs';
import { buildApp } from '../app';
import { openDatabase } from '../db/database';
import { testConfig } from './test-config';

const databaseUrl = process.env.APP_PROCESS_DATABASE_URL;
if (!databaseUrl) throw new Error('APP_PROCESS_DATABASE_URL is not set');
const config = testConfig(JSON.parse(process.env.APP_PROCESS_SETTINGS ?? '{}') as Record<string, string>);
const app = await buildApp({
  config,
  database: await openDatabase({ databaseUrl, dataDir: null }),
  logger: false,
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void app.close().finally(() => {
    rmSync(config.dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message === 'stop') stop();
});
process.send?.({ ready: base });
