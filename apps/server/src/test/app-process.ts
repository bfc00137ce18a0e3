import path from 'node:path';
import { forkServerProcess, type ServerProcess } from './server-process';

/** A server under test in a process of its own (app-process-main.ts), reached over HTTP on 127.0.0.1. */
export interface AppProcess extends ServerProcess {
  get(url: string, headers?: Record<string, string>): Promise<{ statusCode: number }>;
}

/**
 * Starts another server process on the PostgreSQL database at `databaseUrl`. For what must hold across
 * processes: two app instances in one test process share that process's module state (the session
 * caches this process forgets together, say), which a real second process never does.
 */
export async function startAppProcess(
  databaseUrl: string,
  settings: Record<string, string> = {},
): Promise<AppProcess> {
  const server = await forkServerProcess({
    entry: path.join(import.meta.dirname, 'app-process-main.ts'),
    env: {
      ...process.env,
      APP_PROCESS_DATABASE_URL: databaseUrl,
      APP_PROCESS_SETTINGS: JSON.stringify(settings),
    },
    startTimeoutMs: 60_000,
    name: 'server process',
  });
  return {
    ...server,
    async get(url, headers = {}) {
      const response = await fetch(`${server.base}${url}`, { headers });
      await response.body?.cancel();
      return { statusCode: response.status };
    },
  };
}
