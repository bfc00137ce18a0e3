import path from 'node:path';
import { csrfRequestHeaders } from '../http/csrf';
import { forkServerProcess, type ServerProcess } from './server-process';

/** A server under test in a process of its own (app-process-main.ts), reached over HTTP on 127.0.0.1. */
export interface AppProcess extends ServerProcess {
  get(url: string, headers?: Record<string, string>): Promise<{ statusCode: number }>;
  /** A state-changing call as a browser makes it: a CSRF token from this server first, then the JSON. */
  post(
    url: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ statusCode: number; body: string }>;
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
  let csrfToken: Promise<string> | undefined;
  return {
    ...server,
    async get(url, headers = {}) {
      const response = await fetch(`${server.base}${url}`, { headers });
      await response.body?.cancel();
      return { statusCode: response.status };
    },
    async post(url, body, headers = {}) {
      // One token for the process's life, as a browser keeps its cookie.
      csrfToken ??= fetch(`${server.base}/api/csrf`).then(
        async (response) => ((await response.json()) as { _csrf: string })._csrf,
      );
      const response = await fetch(`${server.base}${url}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', ...csrfRequestHeaders(await csrfToken) },
        body: JSON.stringify(body),
      });
      return { statusCode: response.status, body: await response.text() };
    },
  };
}
