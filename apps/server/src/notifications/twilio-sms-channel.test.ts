import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTwilioSmsChannel, SmsDeliveryError } from './twilio-sms-channel';

/** A local server speaking Twilio's Messages API: checks auth, path and form, answers like Twilio. */
interface Received {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}
let server: Server;
let apiUrl: string;
const received: Received[] = [];
let nextAnswer: { status: number; body: unknown } | null = null;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const form = new URLSearchParams(body);
      received.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form,
      });
      const expectedAuth = `Basic ${Buffer.from('AC123:secret-token').toString('base64')}`;
      let answer = nextAnswer;
      if (!answer && request.headers.authorization !== expectedAuth) {
        answer = { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
      }
      answer ??= {
        status: 201,
        body: {
          sid: 'SM0123456789abcdef0123456789abcdef',
          status: 'queued',
          to: form.get('To'),
          from: form.get('From'),
          body: form.get('Body'),
        },
      };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((resolve) => server.close(resolve)));

const channel = (authToken = 'secret-token') =>
  createTwilioSmsChannel({ accountSid: 'AC123', authToken, fromNumber: '+15005550006', apiUrl });

describe('Twilio SMS channel', () => {
  it("posts the message form to the account's Messages resource with basic auth", async () => {
    nextAnswer = null;
    await channel().send({ to: '+12025550123', subject: 'ignored for SMS', text: 'Your code is 123456' });
    const request = received.at(-1)!;
    expect(request.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request.form)).toEqual({
      To: '+12025550123',
      From: '+15005550006',
      Body: 'Your code is 123456',
    });
  });

  it('reports a refused request with Twilio’s own message', async () => {
    nextAnswer = null;
    await expect(channel('wrong-token').send({ to: '+12025550123', subject: '', text: 'x' })).rejects.toThrow(
      new SmsDeliveryError('Twilio refused the message: Authenticate'),
    );
    nextAnswer = {
      status: 400,
      body: { code: 21211, message: "The 'To' number +1202 is not a valid phone number.", status: 400 },
    };
    await expect(channel().send({ to: '+1202', subject: '', text: 'x' })).rejects.toThrow(
      /not a valid phone number/,
    );
  });

  it('reports garbage and failed statuses as delivery errors', async () => {
    nextAnswer = { status: 201, body: '<html>oops</html>' };
    await expect(channel().send({ to: '+12025550123', subject: '', text: 'x' })).rejects.toThrow(
      SmsDeliveryError,
    );
    nextAnswer = { status: 201, body: { sid: 'SMx', status: 'failed' } };
    await expect(channel().send({ to: '+12025550123', subject: '', text: 'x' })).rejects.toThrow(
      /could not deliver/,
    );
  });
});
