import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-app';
import { findPendingMigrations, PendingMigrationsError, readMigrationJournal } from './pending-migrations';

describe('pending migrations', () => {
  const journal = readMigrationJournal();

  it('lists every migration of a database never migrated, oldest first', async () => {
    const { handle, drop } = await createTestDatabase();
    try {
      // Without drizzle's bookkeeping table the database counts as never migrated.
      await handle.db.execute(sql`drop schema drizzle cascade`);
      expect(journal.length).toBeGreaterThan(0);
      expect(await findPendingMigrations(handle.db)).toEqual(journal.map((entry) => entry.tag));
    } finally {
      await handle.close();
      await drop();
    }
  });

  it('lists nothing once migrated, and only what a newer release adds', async () => {
    const { handle, drop } = await createTestDatabase();
    try {
      expect(await findPendingMigrations(handle.db)).toEqual([]);
      const newest = Math.max(...journal.map((entry) => entry.when));
      const nextRelease = [
        ...journal,
        { tag: '9998_next', when: newest + 1_000 },
        { tag: '9999_after', when: newest + 2_000 },
      ];
      expect(await findPendingMigrations(handle.db, nextRelease)).toEqual(['9998_next', '9999_after']);
    } finally {
      await handle.close();
      await drop();
    }
  });

  it('names them and the way out when production refuses to start', () => {
    const error = new PendingMigrationsError(['0007_outbox', '0008_inbox']);
    expect(error.message).toBe(
      'OffZero cannot start: the database lacks 2 migrations (0007_outbox, 0008_inbox). Run ' +
        '`npm run db:migrate` first, or set MIGRATE_ON_START=true to apply them at start.',
    );
  });
});
