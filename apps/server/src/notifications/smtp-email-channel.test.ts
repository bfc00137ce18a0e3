import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpEmailChannel } from './smtp-email-channel';

/**
 * A local SMTP server speaking just what a plain submission needs (no TLS, no login): it keeps each
 * message's raw text as the mail server received it.
 */
async function startSmtpServer(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 localhost ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const command = buffer.slice(0, lineEnd).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (command.startsWith('EHLO')) socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (command === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (command === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('e-mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp.close());

  const channel = () =>
    createSmtpEmailChannel({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'OffZero <no-reply@offzero.example>',
    });
  const unfold = (raw: string) => raw.replace(/=\r\n/g, '').replace(/\r\n[ \t]+/g, ' ');

  it('sends the text and the same words as HTML, as multipart/alternative, links as links', async () => {
    await channel().send({
      to: 'ada@example.com',
      subject: 'Confirm <your> address',
      text: 'You added bc1q… to your payout addresses.\n\nOpen https://offzero.example/confirm?id=1&token=a_b. If this was not you, <do not>.',
    });
    const raw = unfold(smtp.received.at(-1)!);
    expect(raw).toMatch(/Content-Type: multipart\/alternative; boundary=/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    const html = raw.slice(raw.search(/Content-Type: text\/html/i)).replace(/=3D/g, '=');
    expect(html).toContain(
      '<a href="https://offzero.example/confirm?id=1&#38;token=a_b">https://offzero.example/confirm?id=1&#38;token=a_b</a>.',
    );
    expect(html).toContain('&#60;do not&#62;');
    expect(html).toContain('<title>Confirm &#60;your&#62; address</title>');
  });

  it("gives a delivery's every try its Message-ID at the sender's domain, and another delivery another", async () => {
    const first = randomUUID();
    for (const deliveryId of [first, first, randomUUID()]) {
      await channel().send({ to: 'ada@example.com', subject: 'Your order', text: 'Paid.', deliveryId });
    }
    const ids = smtp.received.slice(-3).map((raw) => /^Message-ID: (.*)$/im.exec(unfold(raw))?.[1]);
    expect(ids[0]).toBe(`<${first}@offzero.example>`);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toMatch(/^<[0-9a-f-]{36}@offzero\.example>$/);
    expect(ids[2]).not.toBe(ids[0]);
  });
});
