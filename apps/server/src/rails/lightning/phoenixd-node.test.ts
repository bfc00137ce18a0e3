import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import { startPhoenixdServer, type PhoenixdTestServer } from '../../test/phoenixd-server';
import { LightningNodeError, LightningWebhookError, type LightningNode } from './lightning-node';
import { createPhoenixdNode, phoenixdSignature } from './phoenixd-node';

describe('phoenixd adapter, against a local server speaking its API', () => {
  let server: PhoenixdTestServer;
  let node: LightningNode;

  beforeAll(async () => {
    server = await startPhoenixdServer();
    node = createPhoenixdNode({
      url: server.url,
      password: server.password,
      webhookSecret: server.webhookSecret,
      payTimeoutMs: 500,
    });
  });
  afterAll(() => server.close());

  it('creates an invoice with a form-encoded body and basic auth, and reads it back unpaid', async () => {
    const created = await node.createInvoice({
      amountSats: 12_345,
      description: 'OffZero order #1a2b3c4d',
      expirySeconds: 600,
      externalId: 'order-1',
    });
    const request = server.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/createinvoice' });
    expect(request.form).toEqual({
      description: 'OffZero order #1a2b3c4d',
      amountSat: '12345',
      expirySeconds: '600',
      externalId: 'order-1',
    });
    const decoded = decodeBolt11(created.invoice);
    expect(decoded.amountMsat).toBe(12_345_000n);
    expect(decoded.paymentHash).toBe(created.paymentHash);
    const incoming = await node.incomingPayment(created.paymentHash);
    expect(incoming).toMatchObject({ isPaid: false, externalId: 'order-1', receivedSats: 0 });
  });

  it('reads a paid invoice and verifies the signed webhook', async () => {
    const created = await node.createInvoice({
      amountSats: 5000,
      description: 'x',
      expirySeconds: 600,
      externalId: 'order-2',
    });
    let received: { body: string; headers: Record<string, string | string[] | undefined> } | undefined;
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const { port } = hook.address() as AddressInfo;
    await server.receive(created.paymentHash, `http://127.0.0.1:${port}/hook`);
    hook.close();
    const event = node.verifyWebhook(received!.body, received!.headers);
    expect(event).toEqual({
      type: 'payment_received',
      paymentHash: created.paymentHash,
      amountSats: 5000,
      externalId: 'order-2',
    });
    expect(await node.incomingPayment(created.paymentHash)).toMatchObject({
      isPaid: true,
      receivedSats: 5000,
    });
    // Changed body, or a signature made with another secret: refused.
    expect(() => node.verifyWebhook(received!.body.replace('5000', '50000'), received!.headers)).toThrow(
      LightningWebhookError,
    );
    expect(() =>
      node.verifyWebhook(received!.body, {
        'x-phoenix-signature': phoenixdSignature(received!.body, 'other'),
      }),
    ).toThrow(LightningWebhookError);
    expect(() => node.verifyWebhook(received!.body, {})).toThrow(LightningWebhookError);
  });

  it('pays an invoice: settled with the preimage, then found by id and by hash', async () => {
    const target = await node.createInvoice({
      amountSats: 777,
      description: 'pay me',
      expirySeconds: 600,
      externalId: 'w',
    });
    server.payable.add(target.paymentHash);
    const paid = await node.payInvoice({ invoice: target.invoice });
    expect(paid).toMatchObject({
      status: 'settled',
      paymentHash: target.paymentHash,
      amountSats: 777,
      feeSats: 3,
    });
    expect(server.requests.at(-1)!.form).toEqual({ invoice: target.invoice });
    if (paid.status !== 'settled') throw new Error('unreachable');
    expect(await node.outgoingPayment(paid.paymentId)).toMatchObject({
      status: 'settled',
      preimage: paid.preimage,
    });
    expect(await node.outgoingPaymentByHash(target.paymentHash)).toMatchObject({
      status: 'settled',
      preimage: paid.preimage,
    });
    expect(await node.outgoingPaymentByHash('00'.repeat(32))).toBeNull();
  });

  it('a refused payment is failed with the node reason; no answer is pending, never failed', async () => {
    const target = await node.createInvoice({
      amountSats: 10,
      description: 'no route',
      expirySeconds: 600,
      externalId: 'w',
    });
    expect(await node.payInvoice({ invoice: target.invoice })).toMatchObject({
      status: 'failed',
      reason: 'route not found',
    });
    server.hangPayments = true;
    try {
      expect(await node.payInvoice({ invoice: target.invoice })).toMatchObject({ status: 'pending' });
    } finally {
      server.hangPayments = false;
    }
  });

  it('a wrong password is an error naming it', async () => {
    const wrong = createPhoenixdNode({ url: server.url, password: 'nope', webhookSecret: 'x' });
    await expect(
      wrong.createInvoice({ amountSats: 1, description: 'x', expirySeconds: 60, externalId: 'x' }),
    ).rejects.toThrow(new LightningNodeError('phoenixd refused the API password'));
  });
});
