import { ConfigError, loadDatabaseConfig } from '../config/config';
import { DatabaseUnavailableError, openDatabase, redactUrl } from './database';
import { findPendingMigrations } from './pending-migrations';

/**
 * `npm run db:migrate`: applies the pending migrations to DATABASE_URL (or the embedded database in
 * DATA_DIR) and exits. Run it before starting a new release in production, where the server itself
 * refuses to start while a migration is pending.
 */
async function migrate(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- this command's one read of the environment
  const { databaseUrl, dataDir, poolMax } = loadDatabaseConfig(process.env);
  const where = databaseUrl ? redactUrl(databaseUrl) : `the embedded database in ${dataDir}`;
  const database = await openDatabase({ databaseUrl, dataDir, migrate: false, poolMax });
  try {
    const pending = await findPendingMigrations(database.db);
    if (pending.length === 0) {
      console.log(`No pending migrations in ${where}.`);
      return;
    }
    console.log(`Applying ${pending.length} migration(s) to ${where}: ${pending.join(', ')}`);
  } finally {
    await database.close();
  }
  // Reopening with migrate applies them under the same advisory lock the server start uses.
  const migrated = await openDatabase({ databaseUrl, dataDir, poolMax });
  await migrated.close();
  console.log('Migrations applied.');
}

migrate().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DatabaseUnavailableError) {
      console.error(error.message);
    } else {
      console.error('Migration failed:', error);
    }
    process.exit(1);
  },
);
