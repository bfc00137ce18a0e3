import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readiness } from './health.service';

/**
 * The HTTP/1 answers of a process that may drain. From `app.drain()` on, every answer closes its
 * connection (`Connection: close`): keep-alive clients reconnect, through the load balancer, to another
 * process, and a request still in flight when the server closes does not hold it open for a whole
 * keep-alive timeout. A request that arrives while the process drains is marked in the app's first
 * hook (`closeIfDraining`, a flag read); one already in flight when the drain begins is marked then,
 * through the answer each open connection last started (the server's public `request` event; an answer
 * whose head is already written is left alone).
 */
export function drainingAnswers(server: Server): {
  closeIfDraining(reply: FastifyReply): void;
  drain(): void;
} {
  let draining = false;
  // Each open connection's latest answer: one entry per connection, gone with the connection.
  const latestAnswers = new Map<Socket, ServerResponse>();
  server.on('connection', (connection: Socket) => {
    connection.once('close', () => latestAnswers.delete(connection));
  });
  server.on('request', (request: IncomingMessage, answer: ServerResponse) => {
    latestAnswers.set(request.socket, answer);
  });
  return {
    closeIfDraining(reply) {
      // With `Connection: close` set, Node ends the connection after this answer.
      if (draining) void reply.header('connection', 'close');
    },
    drain() {
      draining = true;
      for (const answer of latestAnswers.values()) {
        if (!answer.headersSent) answer.setHeader('connection', 'close');
      }
    },
  };
}

/** `app.drain()`, the first step of a graceful stop: readiness answers 503, and answers close (above). */
export function registerDraining(
  app: FastifyInstance,
  readiness: Pick<Readiness, 'drain'>,
  answers: Pick<ReturnType<typeof drainingAnswers>, 'drain'>,
): void {
  app.decorate('drain', () => {
    readiness.drain();
    answers.drain();
  });
}

/**
 * The stop sequence on SIGTERM (docs/design.md): readiness turns 503 first; after `drainMs`
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
