import { fork } from 'node:child_process';

/** A server running in a child process, listening on 127.0.0.1. */
export interface ServerProcess {
  base: string;
  /** Its process id (the API benchmark reads the server's CPU time from it). */
  pid: number;
  /** Asks the server to close, then waits for its process to end (killed after 15 s). */
  stop(): Promise<void>;
}

/**
 * Forks `entry` (TypeScript, through tsx) and waits for it to answer `{ ready: base URL }` over IPC. The
 * entry stops when sent `stop` or when its parent goes away: test/app-process-main.ts and the API
 * benchmark's bench/bench-server.ts speak this.
 */
export function forkServerProcess(options: {
  entry: string;
  args?: string[];
  /** Node options besides loading tsx (a CPU profile, say). */
  execArgv?: string[];
  env: NodeJS.ProcessEnv;
  startTimeoutMs: number;
  name: string;
}): Promise<ServerProcess> {
  const child = fork(options.entry, options.args ?? [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: options.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${options.name} did not start within ${options.startTimeoutMs / 1000} s`));
    }, options.startTimeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${options.name} exited with ${code} before listening`));
    });
    child.on('message', (message: { ready?: string }) => {
      if (!message.ready) return;
      clearTimeout(timer);
      resolve({
        base: message.ready,
        pid: child.pid!,
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
