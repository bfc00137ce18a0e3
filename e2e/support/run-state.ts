import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What the browser suites share over one run, kept in files so that every spec file and every worker
// (Playwright starts a new one after a failed test) sees it. The Playwright config clears it when it
// wipes the database.
const stateFile = (name: string) =>
  path.join(os.tmpdir(), `offzero-e2e-${name}-${process.env.E2E_PORT ?? 3100}`);
const phoneCounterFile = stateFile('phones');
const adminTokenFile = stateFile('admin-token');

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Ten digits of a valid US number (202-555-xxxx) that no earlier call in this run has given: every
 * customer needs a phone number no other account has verified.
 */
export function nextPhoneDigits(): string {
  const used = Number(read(phoneCounterFile) ?? 0) || 0;
  writeFileSync(phoneCounterFile, String(used + 1));
  return `202555${String(used % 10_000).padStart(4, '0')}`;
}

/**
 * The demo admin's session token of this run, if a suite has signed the admin in already. Signing in
 * once per run spares the admin's e-mail the server's limit of five codes in 15 minutes.
 */
export function savedAdminToken(): string | null {
  return read(adminTokenFile);
}

export function saveAdminToken(token: string): void {
  writeFileSync(adminTokenFile, token);
}

/** Forgets everything; the Playwright config calls it when it wipes the database. */
export function resetRunState(): void {
  rmSync(phoneCounterFile, { force: true });
  rmSync(adminTokenFile, { force: true });
}
