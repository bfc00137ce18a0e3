import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Readiness } from './health.service';

/**
 * `app.drain()`, the first step of a graceful stop. From then on every HTTP/1 answer carries
 * `Connection: close`: keep-alive clients reconnect, through the load balancer, to another process, and
 * a request still in flight when the server closes does not hold it open for a whole keep-alive timeout.
 */
export function registerDraining(
  app: FastifyInstance,
  readiness: Pick<Readiness, 'drain' | 'isDraining'>,
): void {
  app.decorate('drain', () => readiness.drain());
  // A plain callback: it runs on every answer, and a promise per answer costs more than the check.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (readiness.isDraining() && request.raw.httpVersionMajor === 1)
      void reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * The stop sequence on SIGTERM (DESIGN.md section 7.3): readiness turns 503 first; after `drainMs`
 * (time for load balancers to see it) the app closes: realtime clients are told to reconnect elsewhere
 * (1001), the server stops accepting, requests in flight finish, then jobs, price refresh, Redis and
 * the database stop.
 */
export async function shutDownGracefully(
  app: Pick<FastifyInstance, 'drain' | 'close'>,
  drainMs: number,
): Promise<void> {
  app.drain();
  if (drainMs > 0) await sleep(drainMs);
  await app.close();
}
