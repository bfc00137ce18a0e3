import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryEventBus,
  createRedisEventBus,
  parseRealtimeEvent,
  type EventBus,
  type EventBusLogger,
  type RealtimeEvent,
} from './event-bus';
import { sampleOrder } from './sample-events';

const REDIS_URL = process.env.REDIS_URL;
const WAIT = { timeout: 5_000, interval: 20 };

function quietLog() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}
const asLogger = (log: ReturnType<typeof quietLog>) => log as unknown as EventBusLogger;

const sold: RealtimeEvent = {
  type: 'new-transaction',
  payload: { amount: 0.015, _id: 'order-1', txn: 'ab'.repeat(32) },
};
const kycGreen: RealtimeEvent = { type: 'kyc-updated', payload: { status: 'GREEN' } };

function recorder(bus: EventBus) {
  const received: [string, RealtimeEvent][] = [];
  bus.subscribe((userId, event) => received.push([userId, event]));
  return received;
}

describe('parseRealtimeEvent', () => {
  it('accepts the three event types and keeps only their fields', () => {
    expect(parseRealtimeEvent(sold)).toEqual(sold);
    expect(parseRealtimeEvent(kycGreen)).toEqual(kycGreen);
    expect(
      parseRealtimeEvent({
        type: 'order-updated',
        payload: { order: { ...sampleOrder('x'), internalNote: 'not for customers' }, extra: 1 },
      }),
    ).toEqual({ type: 'order-updated', payload: { order: sampleOrder('x') } });
  });

  it.each([
    null,
    'new-transaction',
    [],
    { type: 'unknown', payload: {} },
    { type: 'kyc-updated' },
    { type: 'kyc-updated', payload: { status: 3 } },
    { type: 'kyc-updated', payload: { status: 'APPROVED' } },
    { type: 'new-transaction', payload: { amount: '1', _id: 'x', txn: 'y' } },
    { type: 'new-transaction', payload: { amount: Number.NaN, _id: 'x', txn: 'y' } },
    { type: 'order-updated', payload: {} },
    { type: 'order-updated', payload: { order: { id: 'x' } } },
  ])('refuses %j', (value) => {
    expect(parseRealtimeEvent(value)).toBeNull();
  });
});

describe('memory event bus', () => {
  it('delivers what the contract allows: unknown fields stripped, a malformed event dropped and logged', async () => {
    const log = quietLog();
    const bus = createMemoryEventBus(asLogger(log));
    const received = recorder(bus);
    const leaky = { type: 'kyc-updated', payload: { status: 'GREEN', reviewer: 'ops@offzero.example' } };
    await bus.publish('user-a', leaky as RealtimeEvent);
    await bus.publish('user-a', {
      type: 'kyc-updated',
      payload: { status: 'MAYBE' },
    } as unknown as RealtimeEvent);
    expect(received).toEqual([['user-a', kycGreen]]);
    expect(log.error).toHaveBeenCalledTimes(1);
    await bus.close();
  });

  it('delivers every event to every subscriber with its user id', async () => {
    const bus = createMemoryEventBus();
    const first = recorder(bus);
    const second = recorder(bus);
    await bus.publish('user-a', sold);
    await bus.publish('user-b', kycGreen);
    expect(first).toEqual([
      ['user-a', sold],
      ['user-b', kycGreen],
    ]);
    expect(second).toEqual(first);
    await bus.close();
  });

  it('stops delivering after unsubscribe and after close', async () => {
    const bus = createMemoryEventBus();
    const received: string[] = [];
    const unsubscribe = bus.subscribe((userId) => received.push(userId));
    const kept: string[] = [];
    bus.subscribe((userId) => kept.push(userId));
    await bus.publish('one', sold);
    unsubscribe();
    await bus.publish('two', sold);
    await bus.close();
    await bus.publish('three', sold);
    expect(received).toEqual(['one']);
    expect(kept).toEqual(['one', 'two']);
  });

  it('keeps delivering to the other listeners when one throws', async () => {
    const log = quietLog();
    const bus = createMemoryEventBus(asLogger(log));
    bus.subscribe(() => {
      throw new Error('listener bug');
    });
    const received = recorder(bus);
    await expect(bus.publish('user-a', sold)).resolves.toBeUndefined();
    expect(received).toEqual([['user-a', sold]]);
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe('redis event bus when Redis is unreachable', () => {
  it('logs, does not throw, and still delivers to its own process', async () => {
    const log = quietLog();
    // Nothing listens on port 1: every connection attempt is refused.
    const bus = createRedisEventBus('redis://127.0.0.1:1', asLogger(log), {
      channel: `offzero:test:${randomBytes(6).toString('hex')}`,
    });
    const received = recorder(bus);
    await expect(bus.publish('user-a', sold)).resolves.toBeUndefined();
    expect(received).toEqual([['user-a', sold]]);
    expect(log.warn).toHaveBeenCalled();
    await bus.close();
  }, 15_000);
});

describe.skipIf(!REDIS_URL)('redis event bus (REDIS_URL)', () => {
  const opened: EventBus[] = [];
  const raw: Redis[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
    raw.splice(0).forEach((connection) => connection.disconnect());
  });

  /** Two server processes share a channel; each test run has its own so parallel files never meet. */
  function processes(count: number, channel = `offzero:test:${randomBytes(6).toString('hex')}`) {
    return Array.from({ length: count }, () => {
      const log = quietLog();
      const bus = createRedisEventBus(REDIS_URL!, asLogger(log), { channel });
      opened.push(bus);
      return { bus, log, channel };
    });
  }

  it('delivers an event published in one process to the subscribers of every process, once', async () => {
    const [a, b] = processes(2);
    await Promise.all([a!.bus.ready(), b!.bus.ready()]);
    const onA = recorder(a!.bus);
    const onB = recorder(b!.bus);
    await a!.bus.publish('user-1', sold);
    await b!.bus.publish('user-2', kycGreen);
    const expected = [
      ['user-1', sold],
      ['user-2', kycGreen],
    ];
    await vi.waitFor(() => expect(onB).toEqual(expected), WAIT);
    await vi.waitFor(() => expect(onA).toEqual(expected), WAIT);
  });

  it('hears nothing from another channel', async () => {
    const [here] = processes(1);
    const [elsewhere] = processes(1);
    await Promise.all([here!.bus.ready(), elsewhere!.bus.ready()]);
    const heard = recorder(here!.bus);
    await elsewhere!.bus.publish('user-1', sold);
    await here!.bus.publish('user-2', kycGreen);
    await vi.waitFor(() => expect(heard).toEqual([['user-2', kycGreen]]), WAIT);
  });

  it('ignores malformed messages on the channel and keeps working', async () => {
    const [server] = processes(1);
    await server!.bus.ready();
    const heard = recorder(server!.bus);
    const intruder = new Redis(REDIS_URL!);
    raw.push(intruder);
    for (const message of [
      'not json',
      '[]',
      JSON.stringify({ userId: 'user-1' }),
      JSON.stringify({ userId: 7, event: sold }),
      JSON.stringify({ userId: 'user-1', event: { type: 'drop-tables', payload: {} } }),
    ]) {
      await intruder.publish(server!.channel, message);
    }
    await server!.bus.publish('user-1', sold);
    await vi.waitFor(() => expect(heard).toEqual([['user-1', sold]]), WAIT);
    expect(server!.log.warn).toHaveBeenCalledTimes(5);
  });

  it('stops hearing events once closed', async () => {
    const [a, b] = processes(2);
    await Promise.all([a!.bus.ready(), b!.bus.ready()]);
    const onA = recorder(a!.bus);
    const onB = recorder(b!.bus);
    await b!.bus.close();
    await a!.bus.publish('user-1', sold);
    await vi.waitFor(() => expect(onA).toEqual([['user-1', sold]]), WAIT);
    expect(onB).toEqual([]);
    await expect(b!.bus.publish('user-1', sold)).resolves.toBeUndefined();
  });
});
