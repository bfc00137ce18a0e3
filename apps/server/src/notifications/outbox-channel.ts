import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { outboxMessages } from '../db/schema';
import type { MessageChannel } from './notification-sender';

/**
 * Demo delivery: the message lands in the outbox table (shown at /dev/outbox) and the server log. A
 * retried outbox delivery lands once: the sink keeps one row per delivery id, as a mail server that
 * de-duplicates on Message-ID would.
 */
export function createOutboxChannel(
  db: Database,
  channel: 'email' | 'sms',
  log: FastifyBaseLogger,
): MessageChannel {
  return {
    kind: 'outbox',
    async send(message) {
      await db
        .insert(outboxMessages)
        .values({
          channel,
          to: message.to,
          subject: message.subject,
          text: message.text,
          code: message.code ?? null,
          deliveryId: message.deliveryId ?? null,
        })
        .onConflictDoNothing({ target: outboxMessages.deliveryId });
      log.info({ channel, subject: message.subject }, 'demo message written to the outbox (see /dev/outbox)');
    },
  };
}
