import { ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Readiness } from './health.service';

/**
 * The HTTP/1 answers of a process that may drain. From `app.drain()` on, every answer closes its
 * connection (`Connection: close`): keep-alive clients reconnect, through the load balancer, to another
 * process, and a request still in flight when the server closes does not hold it open for a whole
 * keep-alive timeout. The answer's class decides it as its head is written, so an answer to a request
 * that arrived before the drain began closes too, and no per-request hook is needed (`ServerResponse`
 * is passed to Node's server by app.ts; `follow` ties it to the readiness made later).
 */
export function drainingAnswers(): {
  ServerResponse: typeof ServerResponse;
  follow(readiness: Pick<Readiness, 'isDraining'>): void;
} {
  let isDraining = () => false;
  class DrainAwareResponse extends ServerResponse {
    // Its two forms, (status, headers) and (status, reason, headers), passed on as they came: Node
    // reads a missing third argument as the second form. No rest array: it runs on every answer.
    override writeHead(
      statusCode: number,
      reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
      headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
    ): this {
      // Node then writes `Connection: close` and ends the connection after this answer.
      if (isDraining()) this.shouldKeepAlive = false;
      return super.writeHead(statusCode, reasonOrHeaders as string | undefined, headers);
    }
  }
  return {
    // Node's type asks for a class generic over the request; this one answers IncomingMessage as Node's.
    ServerResponse: DrainAwareResponse as typeof ServerResponse,
    follow(readiness) {
      isDraining = () => readiness.isDraining();
    },
  };
}

/** `app.drain()`, the first step of a graceful stop: readiness answers 503, and answers close (above). */
export function registerDraining(
  app: FastifyInstance,
  readiness: Pick<Readiness, 'drain' | 'isDraining'>,
  answers: Pick<ReturnType<typeof drainingAnswers>, 'follow'>,
): void {
  answers.follow(readiness);
  app.decorate('drain', () => readiness.drain());
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
