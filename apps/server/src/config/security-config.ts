import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './app-config';
import type { Env } from './env-schema';

/** What is wrong with the secrets given (too short, not an AES-256 key), one line each. */
export function secretProblems(e: Env): string[] {
  const problems: string[] = [];
  if (e.JWT_SECRET && Buffer.byteLength(e.JWT_SECRET) < 32) {
    problems.push('JWT_SECRET must be at least 32 characters (256 bits) of random text');
  }
  if (e.METRICS_TOKEN && Buffer.byteLength(e.METRICS_TOKEN) < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters of random text');
  }
  const encryptionKeys = [e.DATA_ENCRYPTION_KEY, ...(e.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '').split(',')]
    .map((key) => key?.trim() ?? '')
    .filter((key) => key !== '');
  if (encryptionKeys.some((key) => !isAes256Key(key))) {
    problems.push(
      'DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_PREVIOUS_KEYS must each be 32 random bytes in base64 (openssl rand -base64 32)',
    );
  }
  return problems;
}

/** The session signing secret: the configured one, or demo mode's kept in the data folder. */
export function jwtSecret(e: Env, dataDir: string): Uint8Array {
  return new TextEncoder().encode(e.JWT_SECRET ?? demoJwtSecret(dataDir));
}

/** The keys of data encrypted at rest: the current one, and the retired ones still read. */
export function dataEncryptionKeys(e: Env, dataDir: string): AppConfig['dataEncryption'] {
  return {
    current: Buffer.from(e.DATA_ENCRYPTION_KEY ?? demoDataEncryptionKey(dataDir), 'base64'),
    previous: (e.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '')
      .map((key) => Buffer.from(key, 'base64')),
  };
}

function isAes256Key(base64: string): boolean {
  return /^[A-Za-z0-9+/]{43}=?$/.test(base64) && Buffer.from(base64, 'base64').length === 32;
}

/** Demo mode keeps a random data encryption key in the data folder so stored W-9s survive a restart. */
function demoDataEncryptionKey(dataDir: string): string {
  const file = path.join(dataDir, 'data-encryption-key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64');
    writeFileSync(file, key, { mode: 0o600 });
    return key;
  }
}

/** Demo mode keeps a random signing secret in the data folder so sessions survive a restart. */
function demoJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
