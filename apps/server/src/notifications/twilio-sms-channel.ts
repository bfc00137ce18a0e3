import type { MessageChannel } from './notification-sender';

export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
}

/**
 * Production SMS through Twilio's Messages API: a form-encoded POST to
 * `/2010-04-01/Accounts/{AccountSid}/Messages.json` with basic auth, answered 201 with the message's
 * `sid` and `status`, or 4xx with `{ code, message }`. That API takes no idempotency key: an SMS whose
 * deliverer died after Twilio accepted it and before the outbox recorded it is sent again when the
 * claim lease runs out, so SMS notices are at least once (e-mail carries a stable Message-ID).
 */
export function createTwilioSmsChannel(options: {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  apiUrl: string;
}): MessageChannel {
  const url = `${options.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    kind: 'twilio',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: message.to, From: options.fromNumber, Body: message.text }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json().catch(() => null)) as {
        sid?: unknown;
        status?: unknown;
        message?: unknown;
      } | null;
      if (response.status !== 201 || typeof body?.sid !== 'string') {
        const reason = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
        throw new SmsDeliveryError(`Twilio refused the message: ${reason}`);
      }
      if (body.status === 'failed' || body.status === 'undelivered') {
        throw new SmsDeliveryError(`Twilio could not deliver the message (${String(body.status)})`);
      }
    },
  };
}
