import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

/** The folders directly under `dir`, so a new feature folder is covered by the boundary rules at once. */
const foldersIn = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const WEB = './apps/web/src';
const SERVER = './apps/server/src';
const webFeatures = foldersIn(`${WEB}/features`);
/** Server folders that hold no product feature: plumbing every feature may use. */
const serverPlumbing = ['config', 'db', 'http', 'test', 'providers', 'jobs', 'web'];
const serverFeatures = foldersIn(SERVER).filter((name) => !serverPlumbing.includes(name));
/** One folder per rail (docs/design.md, "Rails"). */
const serverRails = foldersIn(`${SERVER}/rails`);

/**
 * Import boundaries (ARCHITECTURE.md):
 * - packages/shared imports no app;
 * - web: shared → lib/config → domain → features → app, components/ beside domain (below the features, never
 *   importing domain); a feature never imports another feature;
 * - server: plumbing (config, db, http) imports no feature; a feature's use-cases and routes are its own
 *   (app-routes.ts wires routes; other features call a feature through its service or repository).
 */
const boundaryZones = [
  {
    target: './packages/shared',
    from: './apps',
    message: 'The shared package is used by the apps, never the reverse.',
  },
  ...webFeatures.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message:
      'A feature does not import another feature: compose them in app/routes, or move the shared part to components/, domain/ or lib/.',
  })),
  ...['components', 'lib', 'config'].map((layer) => ({
    target: `${WEB}/${layer}`,
    from: [`${WEB}/features`, `${WEB}/app`, `${WEB}/domain`],
    message: 'components/, lib/ and config/ sit below the domain hooks, the features and the app.',
  })),
  {
    // The signed-in customer's server state shared by several features: built on lib/ and config/ only.
    target: `${WEB}/domain`,
    from: [`${WEB}/features`, `${WEB}/app`, `${WEB}/components`],
    message: 'domain/ imports only lib/, config/ and the shared package.',
  },
  { target: `${WEB}/features`, from: `${WEB}/app`, message: 'Features do not import the app shell.' },
  ...serverRails.map((rail) => ({
    target: `${SERVER}/rails/${rail}`,
    from: serverRails.filter((other) => other !== rail).map((other) => `${SERVER}/rails/${other}`),
    message: 'A rail folder imports no other rail folder: shared bank code goes in rails/bank-details.ts.',
  })),
  {
    // The back office asks the payouts feature (payouts.service.ts) to move money; it never sends
    // or moves a payout itself (docs/design.md, "Payouts").
    target: `${SERVER}/admin`,
    from: [
      `${SERVER}/payouts/payout-state*.ts`,
      `${SERVER}/payouts/batches/use-cases/*.ts`,
      `${SERVER}/rails/**/*payout-sender.ts`,
      `${SERVER}/rails/paypal/*-gateway.ts`,
    ],
    message: 'admin/ holds no money movement: call the payouts service.',
  },
  ...['config', 'db', 'http'].map((layer) => ({
    target: `${SERVER}/${layer}`,
    from: serverFeatures.map((feature) => `${SERVER}/${feature}`),
    message: 'Server plumbing (config, db, http) imports no feature.',
  })),
  ...serverFeatures.flatMap((feature) => [
    {
      target: `${SERVER}/!(${feature})/**/*`,
      from: `${SERVER}/${feature}/use-cases`,
      message: `The ${feature} use-cases are called through the ${feature} service, not imported by other features.`,
    },
    {
      // Every other folder, and every file beside app-routes.ts (the one file that registers them).
      target: [`${SERVER}/!(${feature})*/**`, `${SERVER}/!(app-routes).ts`],
      from: `${SERVER}/${feature}/*.routes.ts`,
      message: 'Route modules are registered by app-routes.ts only.',
    },
  ]),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      '.data-*/**',
      'test-results/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins and hooks are async by convention even when they do not await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Configuration is parsed once (apps/server/src/config); nothing else reads the environment.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Use the parsed AppConfig instead.' },
      ],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Follow TypeScript files too, or no-cycle never sees a cycle between two .ts modules.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
        createNodeResolver(),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
    },
  },
  {
    // Routes parse, authorise and answer; the database is reached through services and repositories.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'Route files do not query the database: call a use-case or service.',
            },
            {
              group: ['**/db/schema', '**/db/database', '**/*.repository'],
              message: 'Route files do not query the database: call a use-case or service.',
            },
          ],
        },
      ],
    },
  },
  {
    // Smaller rooms: a file a newcomer can read in one sitting, a function that fits on a screen or two.
    // Tests (and the scale test's script) are left out: a describe block is as long as the cases it holds.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'scripts/test-*.mjs'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: [
      'scripts/**',
      'bench/**',
      'playwright.config.ts',
      'e2e/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/test/**',
    ],
    rules: {
      'no-restricted-properties': 'off',
      // Tests reach into any layer to set up state and check it.
      'import-x/no-restricted-paths': 'off',
      'no-restricted-imports': 'off',
      // Tests read JSON answers (typed any) and assert on them directly.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
