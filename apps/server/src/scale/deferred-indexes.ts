/**
 * A bulk load's secondary indexes, dropped before it and built after it (docs/performance.md, "At
 * scale"). Keeping a dozen indexes of a million-row table current row by row costs far more than
 * building each once from the finished table, and the cost grows as they outgrow the cache. Primary
 * keys and constraints stay: the load's own joins read them, and they cannot be dropped on their own.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';

interface IndexDefinition {
  name: string;
  definition: string;
}

/** Every index of the tables that no constraint owns, with the statement that builds it again. */
async function secondaryIndexesOf(db: Database, tables: readonly string[]): Promise<IndexDefinition[]> {
  // Both drivers (node-postgres and the embedded database) answer a raw statement with its `rows`.
  const result: unknown = await db.execute(sql`
    select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
           pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class t on t.oid = i.indrelid
      join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = current_schema()
       and t.relname in (${sql.join(tables.map((table) => sql`${table}`), sql`, `)})
       and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
     order by 1`);
  return (result as { rows: IndexDefinition[] }).rows;
}

/**
 * Runs `load` with the tables' secondary indexes dropped, then builds them again, even when the load
 * fails, so a failed seed leaves the schema whole. Answers how many indexes were built.
 */
export async function withIndexesDeferred(
  db: Database,
  tables: readonly string[],
  load: () => Promise<void>,
  progress: (message: string) => void = () => undefined,
): Promise<number> {
  const indexes = await secondaryIndexesOf(db, tables);
  for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
  try {
    await load();
  } finally {
    // One transaction, so the setting holds on the connection that builds. Building an index sorts
    // its whole table: give the sort memory, as a maintenance window would.
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local maintenance_work_mem = '256MB'`));
      for (const index of indexes) {
        await tx.execute(sql.raw(index.definition));
        progress(`built ${index.name}`);
      }
    });
  }
  return indexes.length;
}
