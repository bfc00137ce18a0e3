import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookDeliveries } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { isDemoBank } from '../providers/provider-registry';
import type { BankTransfer } from './bank-provider';
import type { DemoBank } from './demo-bank';
import { signBankWebhook } from './webhook-signature';
import { demoBankWebhookSecret } from './demo-bank.repository';

const eventually = (check: () => Promise<void> | void) =>
  vi.waitFor(check, { timeout: 15_000, interval: 50 });

const deliver = (t: TestApp, rawBody: Buffer | string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bank/webhook',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: rawBody,
  });

const eventBody = (id: string, objectId: string) =>
  Buffer.from(
    JSON.stringify({
      id,
      created_at: '2026-11-29T12:00:00Z',
      category: 'real_time_payments_transfer.updated',
      associated_object_type: 'real_time_payments_transfer',
      associated_object_id: objectId,
      type: 'event',
    }),
  );

describe('the bank webhook (demo bank)', () => {
  let t: TestApp;
  let bank: DemoBank;
  let secret: string;
  const updates: BankTransfer[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    if (!isDemoBank(t.app.providers.bank)) throw new Error('the demo app has the demo bank');
    bank = t.app.providers.bank;
    t.app.bankWebhooks.onTransferUpdated(async (_tx, transfer) => {
      updates.push(transfer);
    });
    secret = await demoBankWebhookSecret(t.database.db, 'whsec_unused');
  });
  afterAll(async () => t.close());

  it('settles an instant transfer by itself and tells the subscribers once, by a signed webhook', async () => {
    const sent = await bank.createTransfer({
      kind: 'rtp',
      amountCents: 12_345n,
      idempotencyKey: 'order-webhook-1',
      counterparty: { accountNumber: '123456789', routingNumber: '110000000', name: 'Ada Lovelace' },
      description: 'OffZero sell',
    });
    expect(sent.status).toBe('submitted');
    // The same key answers the same transfer; another request under it is refused.
    expect((await bank.createTransfer({ ...sentRequest(), idempotencyKey: 'order-webhook-1' })).id).toBe(
      sent.id,
    );
    await expect(
      bank.createTransfer({ ...sentRequest(), amountCents: 1n, idempotencyKey: 'order-webhook-1' }),
    ).rejects.toMatchObject({ status: 409 });

    await eventually(async () => {
      await t.app.inbox.process(null);
      expect(updates.map((update) => [update.id, update.status])).toContainEqual([sent.id, 'settled']);
    });
    expect(updates.filter((update) => update.id === sent.id)).toHaveLength(1);
    expect((await bank.getTransfer(sent.id)).status).toBe('settled');
  });

  it('refuses a forged, an altered and an old replayed delivery with 401, and stores a replay once', async () => {
    const body = eventBody('event_test_forged', 'real_time_payments_transfer_demo0');
    const forged = signBankWebhook('whsec_not_the_bank', body, new Date());
    expect((await deliver(t, body, { 'increase-webhook-signature': forged })).statusCode).toBe(401);

    const signed = signBankWebhook(secret, body, new Date());
    const altered = Buffer.from(body.toString().replace('event_test_forged', 'event_test_altered'));
    expect((await deliver(t, altered, { 'increase-webhook-signature': signed })).statusCode).toBe(401);
    expect((await deliver(t, body, {})).statusCode).toBe(401);

    const old = signBankWebhook(secret, body, new Date(Date.now() - 10 * 60_000));
    expect((await deliver(t, body, { 'increase-webhook-signature': old })).statusCode).toBe(401);

    const first = await deliver(t, body, { 'increase-webhook-signature': signed });
    expect(first.json()).toEqual({ message: 'Received.' });
    const again = await deliver(t, body, {
      'increase-webhook-signature': signBankWebhook(secret, body, new Date()),
    });
    expect(again.json()).toEqual({ message: 'Already processed.' });
    const stored = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryKey, 'event_test_forged'));
    expect(stored).toHaveLength(1);

    const notAnEvent = Buffer.from('{"hello":"bank"}');
    const notAnEventSigned = signBankWebhook(secret, notAnEvent, new Date());
    expect(
      (await deliver(t, notAnEvent, { 'increase-webhook-signature': notAnEventSigned })).statusCode,
    ).toBe(400);
  });
});

function sentRequest() {
  return {
    kind: 'rtp' as const,
    amountCents: 12_345n,
    counterparty: { accountNumber: '123456789', routingNumber: '110000000', name: 'Ada Lovelace' },
    description: 'OffZero sell',
  };
}
