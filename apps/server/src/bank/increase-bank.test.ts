import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import vector from './test-vectors/increase-webhook-signature.json';
import { createIncreaseBank } from './increase-bank';
import { isValidRoutingNumber } from './routing-number';
import { signBankWebhook, verifyBankWebhookSignature } from './webhook-signature';

/**
 * A local server speaking Increase's REST API as documented (https://increase.com/documentation/api):
 * Bearer key, JSON, `Idempotency-Key` answering the first object again, `{ data: [...] }` lists, thin
 * events whose objects are read back by id.
 */
function startIncreaseServer() {
  const objects = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, Record<string, unknown>>();
  const requests: { method: string; path: string; key: string | undefined; body: unknown }[] = [];
  let counter = 0;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const raw = await read(request);
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      const key = request.headers['idempotency-key'] as string | undefined;
      requests.push({ method: request.method ?? '', path: url.pathname + url.search, key, body });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.headers.authorization !== 'Bearer test-key')
        return send(401, { type: 'invalid_api_key_error', title: 'Invalid API key', status: 401 });
      if (key && byKey.has(key)) return send(200, byKey.get(key));
      const create = (type: string, fields: Record<string, unknown>) => {
        const object = { id: `${type}_${++counter}x`, type, created_at: '2026-11-29T12:00:00Z', ...fields };
        objects.set(object.id, object);
        if (key) byKey.set(key, object);
        return send(200, object);
      };
      if (request.method === 'GET' && url.pathname === '/routing_numbers') {
        const rn = url.searchParams.get('routing_number');
        return send(200, {
          data:
            rn === '021000021'
              ? [
                  {
                    routing_number: rn,
                    name: 'JPMORGAN CHASE BANK, NA',
                    ach_transfers: 'supported',
                    wire_transfers: 'supported',
                    real_time_payments_transfers: 'supported',
                    fednow_transfers: 'not_supported',
                    type: 'routing_number',
                  },
                ]
              : [],
          next_cursor: null,
        });
      }
      if (request.method === 'POST' && url.pathname === '/account_numbers')
        return create('account_number', {
          account_id: body?.account_id,
          account_number: '987654321',
          routing_number: '101050001',
          name: body?.name,
          status: 'active',
        });
      if (request.method === 'POST' && url.pathname === '/ach_transfers')
        return create('ach_transfer', {
          ...body,
          status: 'pending_submission',
          submission: null,
          return: null,
        });
      if (request.method === 'POST' && url.pathname === '/real_time_payments_transfers')
        return create('real_time_payments_transfer', {
          ...body,
          status: 'pending_submission',
          submission: null,
        });
      if (request.method === 'POST' && url.pathname === '/fednow_transfers')
        return create('fednow_transfer', { ...body, status: 'pending_submitting', submission: null });
      if (request.method === 'POST' && url.pathname === '/wire_transfers')
        return create('wire_transfer', { ...body, status: 'pending_creating', submission: null });
      const returning = /^\/inbound_ach_transfers\/([^/]+)\/transfer_return$/.exec(url.pathname);
      if (request.method === 'POST' && returning) {
        const object = objects.get(returning[1]!);
        if (!object) return send(404, { type: 'object_not_found_error', status: 404 });
        Object.assign(object, { status: 'returned', transfer_return: { reason: body?.reason } });
        return send(200, object);
      }
      const get = /^\/[a-z_]+s\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && get) {
        const object = objects.get(get[1]!);
        return object
          ? send(200, object)
          : send(404, { type: 'object_not_found_error', title: 'Not found', status: 404 });
      }
      return send(404, { type: 'not_found' });
    })();
  });
  return { server, objects, requests };
}

describe('Increase adapter against a local server speaking its API', () => {
  const local = startIncreaseServer();
  let bank: ReturnType<typeof createIncreaseBank>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => local.server.listen(0, '127.0.0.1', resolve));
    const { port } = local.server.address() as AddressInfo;
    bank = createIncreaseBank({
      apiUrl: `http://127.0.0.1:${port}/`,
      apiKey: 'test-key',
      accountId: 'account_in71c4amph0vgo2qllky',
      sourceAccountNumberId: 'account_number_source',
      webhookSecret: vector.secret,
      companyName: 'OffZero',
    });
  });
  afterAll(async () => new Promise<void>((resolve) => local.server.close(() => resolve())));

  it('creates an account number once per idempotency key', async () => {
    const first = await bank.createAccountNumber({ name: 'Customer 1', idempotencyKey: 'funding-1' });
    const again = await bank.createAccountNumber({ name: 'Customer 1', idempotencyKey: 'funding-1' });
    expect(first).toMatchObject({ accountNumber: '987654321', routingNumber: '101050001', status: 'active' });
    expect(again.id).toBe(first.id);
    const calls = local.requests.filter((request) => request.path === '/account_numbers');
    expect(calls.map((call) => call.key)).toEqual(['funding-1', 'funding-1']);
    expect(calls[0]!.body).toEqual({ account_id: 'account_in71c4amph0vgo2qllky', name: 'Customer 1' });
  });

  it('looks routing numbers up, and never asks about one that fails the checksum', async () => {
    expect(await bank.lookUpRoutingNumber('021000021')).toEqual({
      routingNumber: '021000021',
      bankName: 'JPMORGAN CHASE BANK, NA',
      ach: true,
      wire: true,
      rtp: true,
      fednow: false,
    });
    expect(await bank.lookUpRoutingNumber('110000000')).toBeNull();
    const before = local.requests.length;
    expect(await bank.lookUpRoutingNumber('021000022')).toBeNull();
    expect(local.requests.length).toBe(before);
  });

  it('sends each kind of transfer in Increase’s shape, with the idempotency key', async () => {
    const counterparty = { accountNumber: '123456789', routingNumber: '021000021', name: 'Ada Lovelace' };
    const debit = await bank.createTransfer({
      kind: 'ach_debit',
      amountCents: 1_000n,
      idempotencyKey: 'debit-1',
      counterparty,
      secCode: 'WEB',
      description: 'OFFZERO',
    });
    expect(debit).toMatchObject({
      kind: 'ach_debit',
      amountCents: 1_000n,
      status: 'pending',
      direction: 'outbound',
    });
    const achBody = local.requests.find((request) => request.key === 'debit-1')!.body;
    expect(achBody).toMatchObject({
      amount: -1000,
      standard_entry_class_code: 'internet_initiated',
      account_number: '123456789',
    });

    const rtp = await bank.createTransfer({
      kind: 'rtp',
      amountCents: 2_500n,
      idempotencyKey: 'order-1',
      counterparty,
      description: 'Sell',
    });
    expect(rtp.kind).toBe('rtp');
    expect(local.requests.find((request) => request.key === 'order-1')!.body).toMatchObject({
      source_account_number_id: 'account_number_source',
      amount: 2500,
      creditor_name: 'Ada Lovelace',
      unstructured_remittance_information: 'Sell',
    });
    const fednow = await bank.createTransfer({
      kind: 'fednow',
      amountCents: 700n,
      idempotencyKey: 'order-2',
      counterparty,
      description: 'Sell',
    });
    expect(fednow.kind).toBe('fednow');
    const wire = await bank.createTransfer({
      kind: 'wire',
      amountCents: 900_000n,
      idempotencyKey: 'order-3',
      counterparty,
      description: 'Sell',
    });
    expect(local.requests.find((request) => request.key === 'order-3')!.body).toMatchObject({
      creditor: { name: 'Ada Lovelace' },
      remittance: { category: 'unstructured' },
    });

    // Read back after the network settles it (Increase's `complete`).
    local.objects.get(rtp.id)!.status = 'complete';
    expect((await bank.getTransfer(rtp.id)).status).toBe('settled');
    local.objects.get(wire.id)!.status = 'rejected';
    expect((await bank.getTransfer(wire.id)).status).toBe('rejected');
    await expect(bank.getTransfer('ach_transfer_missing')).rejects.toMatchObject({ status: 404 });
  });

  it('reads an inbound ACH credit from a thin event, and returns it', async () => {
    local.objects.set('inbound_ach_transfer_abc', {
      id: 'inbound_ach_transfer_abc',
      type: 'inbound_ach_transfer',
      amount: 2500,
      account_number_id: 'account_number_customer',
      direction: 'credit',
      originator_company_name: 'ADA LOVELACE',
      originator_routing_number: '021000021',
      trace_number: '021000021234567',
      status: 'accepted',
      created_at: '2026-11-29T12:00:00Z',
    });
    const event = Buffer.from(
      JSON.stringify({
        id: 'event_1',
        created_at: '2026-11-29T12:00:01Z',
        category: 'inbound_ach_transfer.updated',
        associated_object_type: 'inbound_ach_transfer',
        associated_object_id: 'inbound_ach_transfer_abc',
        type: 'event',
      }),
    );
    expect(await bank.readWebhookEvent(event)).toEqual({
      kind: 'inbound_credit',
      eventId: 'event_1',
      credit: {
        transferId: 'inbound_ach_transfer_abc',
        rail: 'ach',
        accountNumberId: 'account_number_customer',
        amountCents: 2500n,
        originatorName: 'ADA LOVELACE',
        traceNumber: '021000021234567',
        receivedAt: new Date('2026-11-29T12:00:00Z'),
      },
    });
    const returned = await bank.returnInboundTransfer('inbound_ach_transfer_abc', 'not ours');
    expect(returned.status).toBe('returned');
    expect(local.requests.at(-1)).toMatchObject({
      path: '/inbound_ach_transfers/inbound_ach_transfer_abc/transfer_return',
      body: { reason: 'credit_entry_refused_by_receiver' },
    });
  });

  it('answers a bank refusal as a BankError with Increase’s error type', async () => {
    const wrongKey = createIncreaseBank({
      apiUrl: `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`,
      apiKey: 'wrong',
      accountId: 'a',
      sourceAccountNumberId: 'b',
      webhookSecret: 'c',
      companyName: 'OffZero',
    });
    await expect(wrongKey.lookUpRoutingNumber('021000021')).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key_error',
    });
  });
});

describe('Increase webhook signatures', () => {
  const headers = { 'increase-webhook-signature': vector.header };
  const at = new Date(vector.signedAt);

  it('verifies Increase’s own test vector, and signs it identically', () => {
    expect(verifyBankWebhookSignature(vector.secret, Buffer.from(vector.payload), headers, { now: at })).toBe(
      true,
    );
    expect(signBankWebhook(vector.secret, Buffer.from(vector.payload), at)).toBe(vector.header);
  });

  it('refuses another secret, altered bytes, an old signature, and a missing header', () => {
    const body = Buffer.from(vector.payload);
    expect(verifyBankWebhookSignature('whsec_other', body, headers, { now: at })).toBe(false);
    expect(
      verifyBankWebhookSignature(vector.secret, Buffer.from(vector.payload.replace('123', '124')), headers, {
        now: at,
      }),
    ).toBe(false);
    const later = new Date(at.getTime() + 6 * 60_000);
    expect(verifyBankWebhookSignature(vector.secret, body, headers, { now: later })).toBe(false);
    expect(
      verifyBankWebhookSignature(vector.secret, body, headers, { now: later, maxAgeSeconds: null }),
    ).toBe(true);
    expect(verifyBankWebhookSignature(vector.secret, body, {}, { now: at })).toBe(false);
  });

  it('checks ABA routing numbers by their checksum', () => {
    for (const valid of ['021000021', '011000138', '110000000', '101050001'])
      expect(isValidRoutingNumber(valid)).toBe(true);
    for (const invalid of ['021000022', '12345678', '0210000210', 'abcdefghi'])
      expect(isValidRoutingNumber(invalid)).toBe(false);
  });
});
