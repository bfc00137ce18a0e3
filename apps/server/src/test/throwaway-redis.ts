import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

/** Where Debian/Ubuntu install it; tests that need a Redis they may stop skip when it is absent. */
export const REDIS_SERVER_BINARY = '/usr/bin/redis-server';
export const hasRedisServer = existsSync(REDIS_SERVER_BINARY);

/** A port nothing listens on right now, on 127.0.0.1 only. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A Redis of the test's own (never the machine's): no persistence, loopback only, on a fixed port so
 * that it can be stopped like an outage and started again at the same address.
 */
export class ThrowawayRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on its port and resolves once it accepts connections. */
  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      REDIS_SERVER_BINARY,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${output}`));
      });
    });
  }

  /** Kills the server as a crash would (no goodbye to clients) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
