import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisEventBus, PUBLISH_TIMEOUT_MS, type RealtimeEvent, type RedisEventBus } from './event-bus';
import { hasRedisServer, ThrowawayRedis } from '../test/throwaway-redis';

const kycGreen: RealtimeEvent = { type: 'kyc-updated', payload: { status: 'GREEN' } };

function quietLog() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

describe.skipIf(!hasRedisServer)('redis event bus through a Redis that goes away and comes back', () => {
  let redis: ThrowawayRedis;
  const opened: RedisEventBus[] = [];
  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Two server processes on the same Redis, each recording what its subscribers hear. */
  function twoProcesses() {
    const channel = `offzero:test:${randomBytes(6).toString('hex')}`;
    const serverProcess = () => {
      const log = quietLog();
      const bus = createRedisEventBus(redis.url, log, { channel });
      opened.push(bus);
      const heard: string[] = [];
      bus.subscribe((userId) => heard.push(userId));
      const gaps = { count: 0 };
      bus.onGap(() => (gaps.count += 1));
      return { bus, log, heard, gaps };
    };
    return [serverProcess(), serverProcess()] as const;
  }

  it('keeps publishing without throwing or hanging, and delivers across processes again once Redis returns', async () => {
    const [a, b] = twoProcesses();
    await Promise.all([a.bus.ready(), b.bus.ready()]);
    await a.bus.publish('before', kycGreen);
    await vi.waitFor(() => expect(b.heard).toEqual(['before']), { timeout: 5_000, interval: 20 });
    expect([a.gaps.count, b.gaps.count]).toEqual([0, 0]);

    await redis.stop();
    for (const userId of ['during-1', 'during-2']) {
      const started = Date.now();
      await expect(a.bus.publish(userId, kycGreen)).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(PUBLISH_TIMEOUT_MS + 1_000);
    }
    // This process's own sockets still hear what it publishes; the outage is logged, not thrown.
    expect(a.heard).toEqual(expect.arrayContaining(['during-1', 'during-2']));
    expect(a.log.warn).toHaveBeenCalled();

    await redis.start();
    // No restart: the connections come back and the subscriber is subscribed again by itself.
    let attempt = 0;
    await vi.waitFor(
      async () => {
        const userId = `after-${++attempt}`;
        await b.bus.publish(userId, kycGreen);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(a.heard).toContain(userId);
      },
      { timeout: 15_000, interval: 200 },
    );
    // The other way too, once b's own subscriber is back (it may resubscribe a moment after a's).
    await vi.waitFor(
      async () => {
        const userId = `after-from-a-${++attempt}`;
        await a.bus.publish(userId, kycGreen);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(b.heard).toContain(userId);
      },
      { timeout: 15_000, interval: 200 },
    );
    await b.bus.publish('after-from-b', kycGreen);
    await vi.waitFor(() => expect(b.heard).toContain('after-from-b'), { timeout: 5_000, interval: 20 });
    expect(a.log.info).toHaveBeenCalled();
    // b never heard 'during-1' and 'during-2': both processes report the gap, so their realtime
    // routes tell the sockets they hold to read their state again.
    expect(b.heard).not.toContain('during-1');
    await vi.waitFor(
      () => {
        expect(a.gaps.count).toBeGreaterThanOrEqual(1);
        expect(b.gaps.count).toBeGreaterThanOrEqual(1);
      },
      { timeout: 5_000 },
    );
  }, 40_000);
});
