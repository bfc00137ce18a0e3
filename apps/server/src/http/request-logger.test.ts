import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestDatabase, testConfig } from '../test/test-app';
import { loggerOptions } from './logger';
import { requestLoggerFactory } from './request-logger';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

function memoryStream(): { stream: Writable; lines: () => Line[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
  return { stream, lines };
}

/** The factory as Fastify calls it (bound to the instance, with the raw request last). */
function requestLogger(parent: pino.Logger, options: pino.ChildLoggerOptions = {}) {
  return requestLoggerFactory.call(
    {} as FastifyInstance,
    parent,
    { reqId: 'req-7' },
    options,
    {} as Parameters<typeof requestLoggerFactory>[3],
  );
}

describe('request loggers', () => {
  it('write every line at or above the level with the request id, and nothing below it', () => {
    const { stream, lines } = memoryStream();
    const log = requestLogger(pino(loggerOptions('warn') as pino.LoggerOptions, stream));
    log.info('not written');
    log.debug({ detail: 1 }, 'not written either');
    log.warn({ pressure: 'heap' }, 'written');
    log.error(new Error('boom'), 'failed');
    log.child({ job: 'x' }).error('from a child');
    expect(lines().map(({ msg, reqId, level }) => ({ msg, reqId, level }))).toEqual([
      { msg: 'written', reqId: 'req-7', level: 40 },
      { msg: 'failed', reqId: 'req-7', level: 50 },
      { msg: 'from a child', reqId: 'req-7', level: 50 },
    ]);
    expect(lines()[0]!.pressure).toBe('heap');
    expect(lines()[2]!.job).toBe('x');
    expect(log.level).toBe('warn');
  });

  it('follow a level set on them, and a route level of their own', () => {
    const { stream, lines } = memoryStream();
    const parent = pino(loggerOptions('error') as pino.LoggerOptions, stream);
    const log = requestLogger(parent);
    log.level = 'info';
    log.info('now written');
    const probe = requestLogger(parent, { level: 'debug' });
    expect(probe.level).toBe('debug');
    probe.debug('route level');
    expect(lines().map(({ msg, reqId }) => ({ msg, reqId }))).toEqual([
      { msg: 'now written', reqId: 'req-7' },
      { msg: 'route level', reqId: 'req-7' },
    ]);
    expect(parent.level).toBe('error');
  });
});

/** The app logging at `level` into memory, with a route that fails. */
async function appWithLogs(level: string) {
  const memory = memoryStream();
  const database = await createTestDatabase();
  const app = await buildApp({
    config: testConfig({ LOG_LEVEL: level }),
    database: database.handle,
    logStream: memory.stream,
  });
  app.get('/api/test/fails', async () => {
    throw new Error('something broke');
  });
  await app.ready();
  return {
    app,
    lines: memory.lines,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

describe('the app’s logs', () => {
  let app: FastifyInstance;
  let lines: () => Line[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, lines, close } = await appWithLogs('info'));
  });
  afterAll(async () => close());

  it('carry the request id on the request lines and on an error’s line', async () => {
    const price = await app.inject({ method: 'GET', url: '/api/price?from=test' });
    expect(price.statusCode).toBe(200);
    const failed = await app.inject({ method: 'GET', url: '/api/test/fails' });
    expect(failed.statusCode).toBe(500);

    const written = lines().filter((line) => line.reqId !== undefined);
    const priceLines = written.filter((line) => line.reqId === written[0]!.reqId);
    expect(priceLines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(priceLines[0]!.req).toMatchObject({ method: 'GET', path: '/api/price' });
    expect(priceLines[1]!.res).toMatchObject({ statusCode: 200 });

    const failure = written.find((line) => line.msg === 'request failed');
    expect(failure?.reqId).toEqual(expect.any(String));
    expect(failure!.reqId).not.toBe(written[0]!.reqId);
    expect(written.filter((line) => line.reqId === failure!.reqId).map((line) => line.msg)).toEqual([
      'incoming request',
      'request failed',
      'request completed',
    ]);
  });
});

describe('the app’s logs above info', () => {
  it('hold no request lines, and still the error’s line of a failed request', async () => {
    const { app, lines, close } = await appWithLogs('warn');
    try {
      expect((await app.inject({ method: 'GET', url: '/api/price' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/test/fails' })).statusCode).toBe(500);
      const requestLines = lines().filter((line) => line.reqId !== undefined);
      expect(requestLines.map((line) => line.msg)).toEqual(['request failed']);
      expect(requestLines[0]!.level).toBe(50);
    } finally {
      await close();
    }
  });
});
