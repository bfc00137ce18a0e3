import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Runs `use` with the URL of a new, empty PostgreSQL database on the server of `serverUrl`, and drops
 * that database afterwards whatever happens, so a benchmark never touches the data already there.
 */
export async function withScratchDatabase<T>(
  serverUrl: string,
  prefix: string,
  use: (databaseUrl: string) => Promise<T>,
): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}
