import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { DatabaseUnavailableError, openDatabase } from './db/database';

/** Starts OffZero: configuration, database (migrated), HTTP server, and a clean stop on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfig(process.env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    app.close().then(
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
  app.log.info(`OffZero (${config.mode} mode, ${database.kind} database) is serving ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseUnavailableError) {
    console.error(error.message);
  } else {
    console.error('OffZero failed to start:', error);
  }
  process.exit(1);
});
