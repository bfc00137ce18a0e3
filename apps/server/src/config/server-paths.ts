import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder (apps/server), found by walking up from this module to the folder that
 * holds the migrations journal. The answer is the same whether this code runs from `src/config` (tsx,
 * tests) or bundled into `dist/main.js`, whose depth differs, so no path here counts `..` steps.
 */
export function findServerRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    if (path.dirname(dir) === dir) {
      throw new Error(`Cannot find the server's drizzle/meta/_journal.json in ${start} or above it`);
    }
  }
}

export const serverRoot = findServerRoot(import.meta.dirname);
/** drizzle-kit's output: the SQL migrations and their journal. */
export const migrationsFolder = path.join(serverRoot, 'drizzle');
/** Where `vite build` writes the web app, served by the server unless WEB_DIST_DIR says otherwise. */
export const defaultWebDistDir = path.join(serverRoot, '..', 'web', 'dist');
/** The demo's sanctions list: OFAC's SDN advanced XML format, naming the demo's refused addresses. */
export const demoSanctionsListFile = path.join(serverRoot, 'sanctions', 'demo-sdn-advanced.xml');
