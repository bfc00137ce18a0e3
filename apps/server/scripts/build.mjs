#!/usr/bin/env node
// `npm run build -w @offzero/server`: compiles the server to plain JavaScript for `node`, no tsx or
// TypeScript at run time. esbuild bundles our own code and @offzero/shared (which exports raw .ts)
// into dist/main.js and dist/migrate.js; every npm package stays an `import` resolved from
// node_modules. Type checking is `tsc --noEmit` (npm run typecheck), not this.
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');
const distDir = path.join(serverRoot, 'dist');
const readManifest = (file) => JSON.parse(readFileSync(file, 'utf8'));
const serverManifest = readManifest(path.join(serverRoot, 'package.json'));
const sharedManifest = readManifest(path.join(serverRoot, '../../packages/shared/package.json'));

/** Packages installed by `npm ci --omit=dev`: the server's and the bundled shared package's. */
const runtimePackages = new Set([
  ...Object.keys(serverManifest.dependencies ?? {}),
  ...Object.keys(sharedManifest.dependencies ?? {}),
]);
const builtins = new Set(builtinModules);
const WORKSPACE_SCOPE = '@offzero/';

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Bundles the workspace packages; leaves Node built-ins and npm packages to Node's resolver. */
const externalPackages = {
  name: 'external-npm-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith(WORKSPACE_SCOPE) ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync(distDir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: serverRoot,
  entryPoints: {
    main: 'src/main.ts',
    migrate: 'src/db/migrate-cli.ts',
    'rewrap-tins': 'src/tax/rewrap-tins-cli.ts',
  },
  outdir: distDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  // Paths in stack traces stay relative to the repository, which is where the sources are.
  sourcesContent: false,
  plugins: [externalPackages],
  metafile: true,
  logLevel: 'warning',
});

// A package imported at run time but declared only as a devDependency would work here and break
// after `npm prune --omit=dev`: refuse the build instead.
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtins.has(specifier)) continue;
    imported.add(packageName(specifier));
  }
}
const undeclared = [...imported].filter((name) => !runtimePackages.has(name)).sort();
if (undeclared.length > 0) {
  rmSync(distDir, { recursive: true, force: true });
  console.error(
    `The server imports ${undeclared.join(', ')} at run time, but ${undeclared.length === 1 ? 'it is' : 'they are'} ` +
      'not in the "dependencies" of apps/server/package.json (nor packages/shared/package.json). ' +
      'Move them there with `npm install --save-prod -w @offzero/server <name>`.',
  );
  process.exit(1);
}

const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(
    ([file, output]) =>
      `${path.relative(serverRoot, path.resolve(serverRoot, file))} (${Math.round(output.bytes / 1024)} kB)`,
  );
console.log(`Server built: ${sizes.join(', ')}; run time needs ${imported.size} npm packages, all declared.`);
