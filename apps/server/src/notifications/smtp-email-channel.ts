import nodemailer from 'nodemailer';
import type { MessageChannel } from './notification-sender';

/** Production e-mail over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpEmailChannel(options: { smtpUrl: string; from: string }): MessageChannel {
  // Bounded waits: a send that hangs would hold an outbox claim (outbox.repository CLAIM_LEASE_MS).
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
