/** One message to one person. `code` is set on one-time-code messages so the demo outbox can show it. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  code?: string;
  /**
   * Set on notices delivered from the outbox: the same for every try of one delivery, so a receiver can
   * tell a retry (its deliverer died after sending, before recording it) from a new message.
   */
  deliveryId?: string;
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
