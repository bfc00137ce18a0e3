import { defineConfig } from '@playwright/test';
import { rmSync } from 'node:fs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { resetRunState } from './e2e/support/run-state';
import { PASSKEY_ADMIN_EMAIL } from './e2e/support/staff';

// The browser suite drives Debian's Chromium (never a downloaded browser) against the real server,
// built web app and a fresh embedded database in demo mode.
// E2E_PORT lets two runs on one machine keep out of each other's way.
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = `.data-e2e-${port}`;
// Playwright loads this file again in each worker: wipe the database only in the main process, before
// the server starts.
if (!process.env.TEST_WORKER_INDEX) {
  rmSync(dataDir, { recursive: true, force: true });
  // A fresh database: no phone is taken and no one is signed in.
  resetRunState();
}

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.test-reports/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  webServer: {
    // The compiled server, as production runs it (npm test and test:e2e build first).
    command: 'node --enable-source-maps apps/server/dist/main.js',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      APP_MODE: 'demo',
      // An operator of the suite's own beside the demo's two, whose sign-in a spec may change.
      ADMIN_EMAILS: PASSKEY_ADMIN_EMAIL,
      LOG_LEVEL: 'warn',
      // Every test registers its own customers from this one machine: lift the per-IP code limits (20
      // sends and 60 checks per 15 minutes), as the API tests do; the API suite tests those limits.
      OTP_SENDS_PER_IP: '1000',
      OTP_VERIFIES_PER_IP: '1000',
      MUTATIONS_PER_IP_PER_MINUTE: '100000',
      MUTATIONS_PER_USER_PER_MINUTE: '100000',
      // The browser suite shares a small machine with the browser itself: never shed its requests.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
  },
});
