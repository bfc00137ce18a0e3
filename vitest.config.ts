import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// One Vitest run covers the shared package, the web app's units and the API. The API suite runs on the
// embedded database, and a second time on PostgreSQL when TEST_DATABASE_URL is set.
const serverProject = (name: string, database: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DATABASE_KIND: database },
    // One migrated embedded database, dumped once and copied into every test file's database.
    globalSetup: database === 'pglite' ? ['./src/test/database-snapshot.global-setup.ts'] : [],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
  // The benchmarks' own arithmetic (what they print must be what was measured).
  { test: { name: 'bench', root: './bench', include: ['support/**/*.test.ts'], environment: 'node' } },
  serverProject('api (embedded database)', 'pglite'),
  {
    extends: './apps/web/vite.config.ts',
    test: {
      name: 'web',
      root: './apps/web',
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
    },
  },
];
// eslint-disable-next-line no-restricted-properties -- the test runner's own switch, not app configuration
if (process.env.TEST_DATABASE_URL) projects.push(serverProject('api (PostgreSQL)', 'postgres'));

export default defineConfig({
  test: {
    projects,
    passWithNoTests: false,
    // API test files spend much of their time waiting (on background jobs' timers and on the embedded
    // database), so two run at once even on a two-core machine, where Vitest's default would be one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
