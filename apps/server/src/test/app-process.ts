import { fork } from 'node:child_process';
import path from 'node:path';

/** A server under test in a process of its own (app-process-main.ts), reached over HTTP on 127.0.0.1. */
export interface AppProcess {
  base: string;
  get(url: string, headers?: Record<string, string>): Promise<{ statusCode: number }>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts another server process on the PostgreSQL database at `databaseUrl`. For what must hold across
 * processes: two app instances in one test process share that process's module state (the session
 * caches this process forgets together, say), which a real second process never does.
 */
export function startAppProcess(
  databaseUrl: string,
  settings: Record<string, string> = {},
): Promise<AppProcess> {
  const child = fork(path.join(import.meta.dirname, 'app-process-main.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      APP_PROCESS_DATABASE_URL: databaseUrl,
      APP_PROCESS_SETTINGS: JSON.stringify(settings),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server process did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server process exited with ${code} before listening`));
    });
    child.on('message', (message: { ready?: string }) => {
      if (!message.ready) return;
      clearTimeout(timer);
      const base = message.ready;
      resolve({
        base,
        async get(url, headers = {}) {
          const response = await fetch(`${base}${url}`, { headers });
          await response.body?.cancel();
          return { statusCode: response.status };
        },
        async stop() {
          if (child.exitCode !== null) return;
          child.send('stop');
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}
