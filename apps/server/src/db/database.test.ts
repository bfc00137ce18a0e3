import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DatabaseUnavailableError, openDatabase } from './database';
import { users } from './schema';

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
