import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, outboxEvents, outboxMessages } from '../db/schema';
import { createAppMetrics } from '../metrics/app-metrics';
import type { MessageChannel, OutgoingMessage } from '../notifications/notification-sender';
import { createOutboxChannel } from '../notifications/outbox-channel';
import { moveOrder } from '../orders/order-state';
import { createMemoryEventBus } from '../realtime/event-bus';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { MAX_DELIVERY_ATTEMPTS } from '../jobs/retry-schedule';
import { writeOutbox, type OutboxEntry } from './outbox.repository';
import { createOutboxService } from './outbox.service';

const quietLog = { warn: () => undefined, error: () => undefined };

/** The app's e-mail channel: the demo sink, unless the test makes it fail. */
const appEmail = {
  failing: false,
  inner: null as MessageChannel | null,
};
const email: MessageChannel = {
  kind: 'outbox',
  async send(message) {
    if (appEmail.failing) throw new Error('SMTP 451: try again later');
    await appEmail.inner!.send(message);
  },
};

/** A deliverer of its own with a clock the test moves, a day ahead so the app's own sweep stays away. */
function deliverer(t: TestApp, channel: MessageChannel) {
  const clock = { now: new Date(Date.now() + 86_400_000) };
  const service = createOutboxService({
    db: t.database.db,
    channels: { email: channel, sms: channel },
    bus: createMemoryEventBus(),
    log: quietLog,
    publicUrl: t.config.publicUrl,
    now: () => clock.now,
  });
  return { clock, service };
}

describe('outbox', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { providers: { email } });
    appEmail.inner = createOutboxChannel(t.database.db, 'email', t.app.log);
    ada = await registerVerifiedCustomer(t, 'ada.outbox@example.com');
  });
  afterAll(async () => t.close());

  const rowsOf = (eventKeyLike: string) =>
    t.database.db
      .select()
      .from(outboxEvents)
      .where(sql`${outboxEvents.eventKey} like ${eventKeyLike}`)
      .orderBy(outboxEvents.id);
  const eventKeysOfOrder = async (orderId: string) =>
    (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId))).map(
      (row) => `order-event:${row.id}`,
    );

  it('writes the notices of a state change in its transaction: rolled back, nothing is sent', async () => {
    const orderId = await placeBuyOrder(t, ada, 40);
    const move = {
      orderId,
      from: ['pending'] as const,
      to: 'cancelled' as const,
      actor: 'system:test',
      reason: 'test',
    };
    await expect(
      t.database.db.transaction(async (tx) => {
        await moveOrder(tx, move);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const userRows = () =>
      t.database.db
        .select()
        .from(outboxEvents)
        .where(and(eq(outboxEvents.userId, ada.userId), sql`${outboxEvents.eventKey} like 'order-event:%'`));
    expect(await userRows()).toEqual([]);

    const moved = await t.database.db.transaction((tx) => moveOrder(tx, move));
    const written = await userRows();
    // One event, three deliveries: the open pages, an e-mail and an SMS, not yet sent.
    expect(written.map((r) => r.channel).sort()).toEqual(['email', 'realtime', 'sms']);
    expect(new Set(written.map((r) => r.eventKey)).size).toBe(1);
    expect(written.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    expect(await eventKeysOfOrder(orderId)).toContain(written[0]!.eventKey);

    // Once committed, the change's process delivers them.
    await t.app.outbox.deliverForUser(moved.userId);
    const delivered = await userRows();
    expect(delivered.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    const mails = await t.database.db
      .select()
      .from(outboxMessages)
      .where(sql`${outboxMessages.text} like ${`%#${orderId.slice(0, 8)}%was cancelled%`}`);
    expect(mails.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
  });

  it('keeps the change when the e-mail channel fails at commit, and leaves the e-mail to the retries', async () => {
    const orderId = await placeBuyOrder(t, ada, 45);
    appEmail.failing = true;
    try {
      const response = await t.request({
        method: 'POST',
        url: '/api/order/update',
        headers: ada.auth,
        payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
      });
      expect(response.statusCode).toBe(200);
    } finally {
      appEmail.failing = false;
    }
    const rows = await t.database.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.userId, ada.userId), eq(outboxEvents.status, 'pending')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: 'email', attempts: 1, lastError: 'SMTP 451: try again later' });
    // The next try waits for the backoff (a minute after the first failure).
    expect(rows[0]!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);
  });

  it('retries a failing e-mail with exponential backoff for over an hour, then parks it, visible to the back office and in the metric', async () => {
    const tries: Date[] = [];
    const failing: MessageChannel = {
      kind: 'smtp',
      async send(message) {
        if (message.to === 'parked@example.com') {
          tries.push(clock.now);
          throw new Error('550 mailbox unavailable');
        }
      },
    };
    const { clock, service } = deliverer(t, failing);
    await writeOutbox(
      t.database.db,
      [
        {
          eventKey: 'test:parked',
          channel: 'email',
          recipient: 'parked@example.com',
          userId: ada.userId,
          payload: { subject: 'Order #test', text: 'Your order is complete.' },
        },
      ],
      clock.now,
    );
    const metricValue = async () => {
      const metrics = createAppMetrics({
        db: t.database.db,
        prices: { current: () => null },
        log: t.app.log,
      });
      const line = (await metrics.render()).text
        .split('\n')
        .find((l) => l.startsWith('offzero_outbox_pending '));
      return Number(line?.split(' ')[1]);
    };

    // Fresh rows are left to the process that wrote them for a few seconds, then the sweep takes them.
    await service.deliverDue();
    expect(tries).toEqual([]);
    for (let i = 0; i < 800 && tries.length < MAX_DELIVERY_ATTEMPTS; i++) {
      clock.now = new Date(clock.now.getTime() + 15_000);
      await service.deliverDue();
      if (i === 10) {
        // While it is retried, it is in the backlog.
        expect(await service.pending()).toBeGreaterThanOrEqual(1);
        expect(await metricValue()).toBe(await service.pending());
      }
    }
    expect(tries.length).toBe(MAX_DELIVERY_ATTEMPTS);
    expect(tries.length).toBeGreaterThanOrEqual(5);
    const gaps = tries.slice(1).map((at, i) => (at.getTime() - tries[i]!.getTime()) / 1000);
    // Each wait about twice the one before (the sweep runs every 15 s of the test's clock).
    for (let i = 1; i < gaps.length; i++) {
      expect(gaps[i]!).toBeGreaterThanOrEqual(2 * gaps[i - 1]! - 30);
    }
    expect(gaps[0]).toBeGreaterThanOrEqual(60);
    expect((tries.at(-1)!.getTime() - tries[0]!.getTime()) / 1000).toBeGreaterThanOrEqual(3600);

    // Parked: no more tries, out of the backlog, listed with its error.
    clock.now = new Date(clock.now.getTime() + 86_400_000);
    await service.deliverDue();
    expect(tries.length).toBe(MAX_DELIVERY_ATTEMPTS);
    const [row] = await rowsOf('test:parked');
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS });
    expect(await metricValue()).toBe(await service.pending());

    const admin = await logIn(t, 'admin@offzero.local');
    const answer = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.auth });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.pending).toBe(await service.pending());
    expect(body.failed).toContainEqual(
      expect.objectContaining({
        eventKey: 'test:parked',
        channel: 'email',
        recipient: 'parked@example.com',
        attempts: MAX_DELIVERY_ATTEMPTS,
        error: '550 mailbox unavailable',
      }),
    );
    // Customers do not see it.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: ada.auth })).statusCode,
    ).toBe(403);
  });

  it('delivers an event once, however often it is written and however many deliverers run', async () => {
    const sent: OutgoingMessage[] = [];
    const counting: MessageChannel = {
      kind: 'smtp',
      async send(message) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        sent.push(message);
      },
    };
    const entry: OutboxEntry = {
      eventKey: 'test:twice',
      channel: 'email',
      recipient: 'twice@example.com',
      userId: ada.userId,
      payload: { subject: 'Once', text: 'Only once.' },
    };
    const a = deliverer(t, counting);
    const b = deliverer(t, counting);
    await writeOutbox(t.database.db, [entry], a.clock.now);
    await t.database.db.transaction(async (tx) => writeOutbox(tx, [entry, entry], a.clock.now));
    expect(await rowsOf('test:twice')).toHaveLength(1);

    a.clock.now = b.clock.now = new Date(a.clock.now.getTime() + 60_000);
    await Promise.all([
      a.service.deliverDue(),
      b.service.deliverDue(),
      a.service.deliverForUser(ada.userId),
      b.service.deliverDue(),
    ]);
    expect(sent.filter((m) => m.to === 'twice@example.com')).toHaveLength(1);
    expect((await rowsOf('test:twice'))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('a delivery retried after its deliverer died between sending and recording reaches the demo sink once, and carries one delivery id', async () => {
    const sink = createOutboxChannel(t.database.db, 'email', t.app.log);
    const ids: (string | undefined)[] = [];
    // The first deliverer sends, then dies before it can record the delivery.
    const dying: MessageChannel = {
      kind: 'outbox',
      async send(message) {
        ids.push(message.deliveryId);
        await sink.send(message);
        throw new Error('process killed');
      },
    };
    const recording: MessageChannel = {
      kind: 'outbox',
      async send(message) {
        ids.push(message.deliveryId);
        await sink.send(message);
      },
    };
    const entry: OutboxEntry = {
      eventKey: 'test:crash-after-send',
      channel: 'email',
      recipient: 'crash@example.com',
      userId: ada.userId,
      payload: { subject: 'Your order', text: 'Sent once, even after a crash.' },
    };
    const first = deliverer(t, dying);
    await writeOutbox(t.database.db, [entry], first.clock.now);
    first.clock.now = new Date(first.clock.now.getTime() + 60_000);
    await first.service.deliverDue();

    const second = deliverer(t, recording);
    second.clock.now = new Date(first.clock.now.getTime() + 3_600_000);
    await second.service.deliverDue();

    expect((await rowsOf('test:crash-after-send'))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(ids).toHaveLength(2);
    // Random, so no other database's rows share it (a Message-ID made of the row id would repeat).
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[1]).toBe(ids[0]);
    const landed = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'crash@example.com'));
    expect(landed).toHaveLength(1);
    expect(landed[0]).toMatchObject({ subject: 'Your order', deliveryId: ids[0] });
  });

  it('delivers what a save wrote right after its commit; a save that wrote nothing claims nothing', async () => {
    const bea = await registerVerifiedCustomer(t, 'bea.outbox@example.com');
    // The first buy to an address adds it to the address book and e-mails a confirmation link: sent
    // before the answer, not left to the sweep (which waits for fresh rows).
    await placeBuyOrder(t, bea, 40);
    const sent = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.to, bea.email));
    expect(sent.map((message) => message.subject)).toContain('Confirm your new payout address');

    // A row of hers written elsewhere (say its process died before delivering it) is the sweep's:
    // a second buy to the same address writes no notice, and its save does not touch that row.
    await writeOutbox(t.database.db, [
      {
        eventKey: 'test:written-elsewhere',
        channel: 'email',
        recipient: bea.email,
        userId: bea.userId,
        payload: { subject: 'Written elsewhere', text: 'Delivered by the sweep.' },
      },
    ]);
    await placeBuyOrder(t, bea, 41);
    expect((await rowsOf('test:written-elsewhere'))[0]).toMatchObject({ status: 'pending', attempts: 0 });
  });
});
