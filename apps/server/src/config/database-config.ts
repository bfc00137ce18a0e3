import path from 'node:path';
import { ConfigError, envSchema, issuesOf } from './env-schema';

/**
 * Only where the database is, for `npm run db:migrate`: it must run before a release starts, without
 * the providers' secrets the server itself needs.
 */
export function loadDatabaseConfig(env: Record<string, string | undefined>): {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
} {
  const parsed = envSchema
    .pick({ DATABASE_URL: true, DATA_DIR: true, DATABASE_POOL_MAX: true })
    .safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(issuesOf(parsed.error));
  }
  return {
    databaseUrl: parsed.data.DATABASE_URL,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    poolMax: parsed.data.DATABASE_POOL_MAX,
  };
}
