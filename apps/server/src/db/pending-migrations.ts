import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { migrationsFolder } from '../config/server-paths';
import type { Database } from './database';

interface JournalEntry {
  tag: string;
  when: number;
}

/** The migrations drizzle-kit wrote, oldest first, as listed in its journal. */
export function readMigrationJournal(folder: string = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * The names of the migrations the database has not had yet, oldest first. Uses drizzle's own rule
 * (a migration is applied when its journal time is after the newest one recorded in
 * `drizzle.__drizzle_migrations`), so this lists exactly what `npm run db:migrate` would apply.
 */
export async function findPendingMigrations(
  db: Database,
  journal: JournalEntry[] = readMigrationJournal(),
): Promise<string[]> {
  const [table] = await rowsOf<{ name: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`,
  );
  let lastApplied = -Infinity;
  if (table?.name) {
    const [newest] = await rowsOf<{ created_at: string | number | null }>(
      db,
      sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`,
    );
    if (newest?.created_at !== null && newest?.created_at !== undefined)
      lastApplied = Number(newest.created_at);
  }
  return journal.filter((entry) => entry.when > lastApplied).map((entry) => entry.tag);
}

async function rowsOf<Row>(db: Database, query: SQL): Promise<Row[]> {
  // Both drivers answer raw queries as { rows }.
  const result: unknown = await db.execute(query);
  return (result as { rows: Row[] }).rows;
}

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
  constructor(public readonly pending: string[]) {
    super(
      `OffZero cannot start: the database lacks ${pending.length} migration${pending.length === 1 ? '' : 's'} ` +
        `(${pending.join(', ')}). Run \`npm run db:migrate\` first, or set MIGRATE_ON_START=true ` +
        'to apply them at start.',
    );
  }
}
