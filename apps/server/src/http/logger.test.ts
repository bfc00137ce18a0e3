import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { loggerOptions } from './logger';

/** A logger with the app's options, writing into a string. */
function memoryLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino(loggerOptions('info') as pino.LoggerOptions, stream);
  return { logger, text: () => lines.join('') };
}

describe('logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('never carry the values of a failed query, only its text and what went wrong', async () => {
    const email = 'ada.private@example.com';
    let failure: unknown;
    try {
      // A real failure of the database driver, with personal data among the parameters.
      await t.database.db.execute(sql`select ${email}::int as n, ${'Ada Lovelace'}::text as name`);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain(email); // what the driver puts there

    const { logger, text } = memoryLogger();
    logger.error({ err: failure }, 'request failed');
    const logged = text();
    expect(logged).not.toContain(email);
    expect(logged).not.toContain('Ada Lovelace');
    expect(logged).toContain('Failed query: select $1::int');
    expect(logged).toContain('params: [not logged]');
    expect(logged).toContain('database error 22P02');
  });

  it('drop the row values PostgreSQL repeats in a constraint error', () => {
    const cause = Object.assign(
      new Error('duplicate key value violates unique constraint "users_email_unique"'),
      {
        code: '23505',
        detail: 'Key (email)=(bob.private@example.com) already exists.',
      },
    );
    const wrapped = new Error('could not save', { cause });
    const { logger, text } = memoryLogger();
    logger.warn({ err: wrapped }, 'save failed');
    const logged = text();
    expect(logged).not.toContain('bob.private@example.com');
    expect(logged).toContain('23505');
    expect(logged).toContain('users_email_unique');
  });

  it('show a request by its path, never its query string, and hide credentials', () => {
    const { logger, text } = memoryLogger();
    logger.info(
      {
        req: {
          id: 'r1',
          method: 'GET',
          url: '/api/dev/outbox?to=carol.private%40example.com',
          ip: '127.0.0.1',
          headers: { authorization: 'Bearer secret-token' },
        },
      },
      'incoming request',
    );
    const logged = text();
    expect(logged).toContain('/api/dev/outbox');
    expect(logged).not.toContain('carol.private');
    expect(logged).not.toContain('secret-token');
  });
});
