import nodemailer from 'nodemailer';
import { emailHtml } from './email-html';
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
  const senderDomain = options.from.replace(/^.*@/, '').replace(/[>\s].*$/, '') || 'offzero.local';
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        // Beside the text, the same words as HTML (multipart/alternative): mail programs that show
        // HTML show links as links, and spam filters expect both parts.
        html: emailHtml(message.subject, message.text),
        // Every try of one outbox delivery carries the same Message-ID, so a retry after a crash
        // between sending and recording is recognised as the same message by mail systems; the
        // delivery id is random, so no other message anywhere has it.
        ...(message.deliveryId ? { messageId: `<${message.deliveryId}@${senderDomain}>` } : {}),
      });
    },
  };
}
