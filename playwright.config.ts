import { defineConfig } from '@playwright/test';
import { rmSync } from 'node:fs';

// The browser suite drives Debian's Chromium (never a downloaded browser) against the real server,
// built web app and a fresh embedded database in demo mode.
// E2E_PORT lets two runs on one machine keep out of each other's way.
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = `.data-e2e-${port}`;
// Playwright loads this file again in each worker: wipe the database only in the main process, before
// the server starts.
if (!process.env.TEST_WORKER_INDEX) rmSync(dataDir, { recursive: true, force: true });

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
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'npx tsx apps/server/src/main.ts',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), DATA_DIR: dataDir, APP_MODE: 'demo', LOG_LEVEL: 'warn' },
  },
});
