import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { DatabaseUnavailableError, openDatabase } from './db/database';
import { findPendingMigrations, PendingMigrationsError } from './db/pending-migrations';
import { shutDownGracefully } from './health/graceful-shutdown';

/**
 * Starts OffZero: configuration, database (migrated in demo or with MIGRATE_ON_START; otherwise checked
 * for pending migrations), HTTP server, and a graceful stop on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfig(process.env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: config.migrateOnStart,
    poolMax: config.databasePoolMax,
  });
  if (!config.migrateOnStart) {
    // Production migrates as its own release step (`npm run db:migrate`): new code on an old schema
    // would fail on its first query instead of here.
    const pending = await findPendingMigrations(database.db);
    if (pending.length > 0) {
      await database.close();
      throw new PendingMigrationsError(pending);
    }
  }
  const app = await buildApp({ config, database });

  // SIGTERM: readiness turns 503, and after SHUTDOWN_DRAIN_SECONDS the server stops accepting, lets
  // requests in flight finish, closes realtime sockets (clients reconnect elsewhere) and stops its jobs.
  let stopping = false;
  const stop = (signal: string) => {
    // npm forwards the terminal's Ctrl-C, so one keypress can arrive twice.
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'stopping: draining, then finishing requests');
    const forceExit = setTimeout(() => {
      app.log.error('did not stop in time; exiting anyway');
      process.exit(1);
    }, config.shutdownDrainMs + 15_000);
    forceExit.unref();
    shutDownGracefully(app, config.shutdownDrainMs).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    `OffZero (${config.mode} mode, ${database.kind} database, ${config.processRole} role) is serving ` +
      (config.processRole === 'worker'
        ? `health checks and metrics on port ${config.port}`
        : config.publicUrl),
  );
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DatabaseUnavailableError ||
    error instanceof PendingMigrationsError
  ) {
    console.error(error.message);
  } else {
    console.error('OffZero failed to start:', error);
  }
  process.exit(1);
});
