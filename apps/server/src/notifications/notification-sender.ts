import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config';
import type { Database } from '../db/database';
import { createOutboxChannel } from './outbox-channel';
import { createSmtpEmailChannel } from './smtp-email-channel';
import { createTwilioSmsChannel } from './twilio-sms-channel';

/** One message to one person. `code` is set on one-time-code messages so the demo outbox can show it. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  code?: string;
}

/** A way to reach a person: e-mail or SMS, real or the demo outbox. */
export interface MessageChannel {
  send(message: OutgoingMessage): Promise<void>;
}

export interface NotificationSender {
  email: MessageChannel;
  sms: MessageChannel;
}

/** Production sends through SMTP and Twilio; demo writes both channels to the outbox table. */
export function createNotificationSender(
  config: AppConfig,
  db: Database,
  log: FastifyBaseLogger,
): NotificationSender {
  if (config.isDemo) {
    return { email: createOutboxChannel(db, 'email', log), sms: createOutboxChannel(db, 'sms', log) };
  }
  if (!config.mail || !config.twilio) throw new Error('production mode needs SMTP and Twilio settings');
  return { email: createSmtpEmailChannel(config.mail), sms: createTwilioSmsChannel(config.twilio) };
}
