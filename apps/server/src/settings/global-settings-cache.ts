import type { Database } from '../db/database';
import type { GlobalSettingsRow } from '../db/schema';
import { findGlobalSettings } from './global-settings.repository';

/**
 * The global settings as an order save reads them: remembered for under a second per process, so a
 * busy order path asks the database once per interval rather than once or twice per save.
 *
 * An admin's change takes effect everywhere within one second: the process that saved it forgets its
 * copy at once (`forgetCachedGlobalSettings`, after the commit), and every other process's copy
 * expires by then. The interval counts from before the query, so a copy is never older than that.
 */
export const GLOBAL_SETTINGS_CACHE_MS = 900;

interface CachedSettings {
  answer: Promise<GlobalSettingsRow>;
  /** Trusted until this time (a monotonic clock's ms: tests that move the app's clock do not age it). */
  until: number;
  /** The forget count when the read began: a read that overlapped a change is never trusted after it. */
  generation: number;
}

/** One copy per database (tests build several apps, on several databases, in one process). */
const cached = new WeakMap<Database, CachedSettings>();
let generation = 0;

/** Drops this process's copies, so the next read asks the database: call it after settings change. */
export function forgetCachedGlobalSettings(): void {
  generation += 1;
}

/** The settings row, from this process's copy while it is fresh; concurrent reads share one query. */
export async function readGlobalSettings(db: Database): Promise<GlobalSettingsRow> {
  const startedAt = performance.now();
  const entry = cached.get(db);
  if (entry && entry.generation === generation && entry.until > startedAt) return { ...(await entry.answer) };
  const answer = findGlobalSettings(db);
  const fresh: CachedSettings = { answer, until: startedAt + GLOBAL_SETTINGS_CACHE_MS, generation };
  cached.set(db, fresh);
  try {
    return { ...(await answer) };
  } catch (error) {
    // A failed read is not remembered: the next save asks again.
    if (cached.get(db) === fresh) cached.delete(db);
    throw error;
  }
}
