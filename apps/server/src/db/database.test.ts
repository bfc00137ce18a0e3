import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '../test/test-app';
import { DatabaseUnavailableError, openDatabase } from './database';
import { users } from './schema';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';

describe('embedded database', () => {
  it('keeps its data when started twice on the same data folder', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-db-'));
    const first = await openDatabase({ dataDir });
    await first.db.insert(users).values({ email: 'kept@example.com' });
    await first.close();

    const second = await openDatabase({ dataDir });
    const rows = await second.db.select().from(users).where(eq(users.email, 'kept@example.com'));
    expect(rows).toHaveLength(1);
    await second.close();
  });
});

describe('PostgreSQL that is down', () => {
  it('fails with a clear message instead of crashing or retrying forever', async () => {
    const attempt = openDatabase({
      databaseUrl: 'postgres://offzero:secret@127.0.0.1:1/offzero',
      dataDir: null,
    });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(attempt).rejects.toThrow(
      /Cannot reach PostgreSQL at postgres:\/\/offzero:\*\*\*@127\.0\.0\.1:1\/offzero/,
    );
  });
});

describe.runIf(IS_POSTGRES)('PostgreSQL connection pool', () => {
  it('keeps at most DATABASE_POOL_MAX connections: more queries at once wait for one', async () => {
    const created = await createTestDatabase();
    const limited = await openDatabase({ databaseUrl: created.url, dataDir: null, poolMax: 2 });
    try {
      const sleeping = sql`select count(*)::int as running from pg_stat_activity
        where datname = current_database() and state = 'active' and query like 'select pg_sleep(0.2)%'`;
      let done = false;
      const queries = Promise.all(
        Array.from({ length: 6 }, () => limited.db.execute(sql.raw('select pg_sleep(0.2)'))),
      ).finally(() => (done = true));
      // Watched from the test database's own pool, not from the limited one.
      const seen: number[] = [];
      while (!done) {
        const answer = (await created.handle.db.execute(sleeping)) as { rows: { running: number }[] };
        seen.push(answer.rows[0]!.running);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await queries;
      expect(Math.max(...seen)).toBe(2);
    } finally {
      await limited.close();
      await created.handle.close();
      await created.drop();
    }
  });
});
