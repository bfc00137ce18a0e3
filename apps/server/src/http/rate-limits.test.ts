import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors';
import { registerRateLimits } from './rate-limits';
import { freePort, hasRedisServer, ThrowawayRedis } from '../test/throwaway-redis';

const LIMIT = 3;
/** An answer slower than this would mean a request waited for Redis. */
const PROMPT_MS = 1_500;

const opened: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/** One server process with one limited route, as accounts.routes.ts sets them. */
async function serverProcess(redisUrl: string | undefined): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  opened.push(app);
  registerErrorHandling(app);
  await registerRateLimits(app, redisUrl);
  app.post('/limited', { config: { rateLimit: { max: LIMIT, timeWindow: '15 minutes' } } }, async () => ({
    ok: true,
  }));
  await app.ready();
  return app;
}

let ipCounter = 0;
/** Each check uses its own client address, so counts from earlier checks never mix in. */
const nextIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function send(app: FastifyInstance, ip: string) {
  const started = Date.now();
  const response = await app.inject({ method: 'POST', url: '/limited', remoteAddress: ip });
  return { status: response.statusCode, ms: Date.now() - started, body: response.json<{ code?: string }>() };
}

/** The limit holds for one client in one process: LIMIT answers, then 429, each answered promptly. */
async function expectLimitEnforced(app: FastifyInstance): Promise<void> {
  const ip = nextIp();
  const answers = [];
  for (let i = 0; i <= LIMIT; i++) answers.push(await send(app, ip));
  expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  expect(answers.at(-1)!.body.code).toBe('TOO_MANY_REQUESTS');
  for (const answer of answers) expect(answer.ms).toBeLessThan(PROMPT_MS);
}

/** Whether two processes count together: LIMIT requests on one, then the next on the other is refused. */
async function countsAreShared(a: FastifyInstance, b: FastifyInstance): Promise<boolean> {
  const ip = nextIp();
  for (let i = 0; i < LIMIT; i++) await send(a, ip);
  return (await send(b, ip)).status === 429;
}

async function eventually(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('rate limits without Redis', () => {
  it('count in the process', async () => {
    await expectLimitEnforced(await serverProcess(undefined));
  });
});

describe('rate limits when REDIS_URL points at nothing', () => {
  it('keep answering promptly and still refuse past the limit (never fail open)', async () => {
    const port = await freePort();
    const app = await serverProcess(`redis://127.0.0.1:${port}`);
    await expectLimitEnforced(app);
  }, 20_000);
});

describe.skipIf(!hasRedisServer)('rate limits through a Redis that goes away and comes back', () => {
  let redis: ThrowawayRedis;
  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('share counts, fall back to per-process memory during the outage, then share again', async () => {
    const a = await serverProcess(redis.url);
    const b = await serverProcess(redis.url);
    await eventually(() => countsAreShared(a, b));

    await redis.stop();
    // Every request is still answered, promptly, and the limit still holds in each process alone.
    await expectLimitEnforced(a);
    await expectLimitEnforced(b);
    expect(await countsAreShared(a, b)).toBe(false);

    await redis.start();
    await eventually(() => countsAreShared(a, b));
  }, 40_000);
});
