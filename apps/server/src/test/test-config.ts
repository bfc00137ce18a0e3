import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '../config/config';

/**
 * The configuration of a server under test: demo mode, a data folder of its own, a fresh signing
 * secret and limits high enough for many customers from one client; `overrides` changes any setting.
 * Free of the test runner, so a server in a process of its own (app-process.ts) is set up the same way.
 */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-test-'));
  return loadConfig({
    APP_MODE: 'demo',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    // Many customers register from one test client; the flood test sets its own limit.
    OTP_SENDS_PER_IP: '10000',
    OTP_VERIFIES_PER_IP: '10000',
    // Likewise every state-changing call; the mutation limit test sets its own.
    MUTATIONS_PER_IP_PER_MINUTE: '1000000',
    MUTATIONS_PER_USER_PER_MINUTE: '1000000',
    // A busy test machine stalls event loops for a second now and then; shedding is tested on its own.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...overrides,
  });
}
