/** One message to one person. `code` is set on one-time-code messages so the demo outbox can show it. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  code?: string;
}

/**
 * A way to reach a person: SMTP e-mail, Twilio SMS, or the demo outbox. Which one is used is decided in
 * `providers/provider-registry.ts`.
 */
export interface MessageChannel {
  kind: 'smtp' | 'twilio' | 'outbox';
  send(message: OutgoingMessage): Promise<void>;
}

export interface NotificationSender {
  email: MessageChannel;
  sms: MessageChannel;
}
