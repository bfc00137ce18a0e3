import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, serverRoot } from '../config/server-paths';
import { EMBEDDED_EXTENSIONS } from '../db/database';

/**
 * Vitest global setup of the embedded-database API suite. Creating a PGlite database runs initdb, which
 * takes seconds; loading a dumped one takes a fraction of that. So the suite creates and migrates one
 * database, dumps it, and every test database starts as a copy (`createTestDatabase` in test-app.ts).
 *
 * The dump is kept between runs in node_modules/.cache, named by a hash of the migrations and the PGlite
 * version: a new migration or a PGlite upgrade makes a new dump, never a stale one.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated empty database's dump (a tar file); absent outside the embedded-database suite. */
    embeddedDatabaseSnapshot: string | undefined;
  }
}

const cacheDir = path.join(serverRoot, '../../node_modules/.cache/offzero-test-database');

export default async function setup(project: TestProject): Promise<void> {
  project.provide('embeddedDatabaseSnapshot', await migratedSnapshot());
}

async function migratedSnapshot(): Promise<string> {
  const file = path.join(cacheDir, `migrated-${snapshotKey()}.tar`);
  if (existsSync(file)) return file;

  const client = await PGlite.create({ extensions: EMBEDDED_EXTENSIONS });
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    mkdirSync(cacheDir, { recursive: true });
    pruneOldDumps();
    // Two runs writing at once each rename a whole file into place.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

function snapshotKey(): string {
  const hash = createHash('sha256');
  const pglitePackage = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    '../package.json',
  );
  hash.update((JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version);
  const migrationFiles = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const migration of migrationFiles) {
    hash.update(path.relative(migrationsFolder, migration));
    hash.update(readFileSync(migration));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Dumps of earlier migrations, left an hour for a run that may still be reading one. */
function pruneOldDumps(): void {
  const anHourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of readdirSync(cacheDir)) {
    const file = path.join(cacheDir, name);
    if (statSync(file).mtimeMs < anHourAgo) rmSync(file, { force: true });
  }
}
