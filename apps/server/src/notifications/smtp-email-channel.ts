import nodemailer from 'nodemailer';
import type { MessageChannel } from './notification-sender';

/** Production e-mail over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpEmailChannel(options: { smtpUrl: string; from: string }): MessageChannel {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
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
