import type { Database } from '../db/database';
import type { GlobalSettingsRow } from '../db/schema';
import { findGlobalSettings } from './global-settings.repository';

/** The operator's global settings as they are in force now. */
export function createGlobalSettingsService(db: Database) {
  return {
    current: (): Promise<GlobalSettingsRow> => findGlobalSettings(db),
  };
}

export type GlobalSettingsService = ReturnType<typeof createGlobalSettingsService>;
