import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { lazySharedSchemas } from './build/lazy-schemas.ts';

// In development the API runs on its own port; the built app is served by the API server itself.
// `vite build --ssr` compiles the public pages' renderer (src/prerender) for scripts/prerender.mjs, with
// every dependency bundled in so plain Node runs it.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [lazySharedSchemas(), react(), tailwindcss()],
  // zod set up for the browser before any schema is built (src/lib/zod-jitless.ts).
  resolve: {
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: 'dist-ssr',
        emptyOutDir: true,
        sourcemap: false,
        rollupOptions: {
          input: {
            'render-page': 'src/prerender/render-page.tsx',
            'prerender-support': 'src/prerender/prerender-support.ts',
          },
        },
      }
    : {
        outDir: 'dist',
        sourcemap: false,
        // scripts/prerender.mjs reads which chunks each page's route needs, and lists them in its head.
        manifest: true,
        // Code loaded on demand fetches what it imports as the browser reads it, without the preload
        // links Vite would otherwise add to the document first: adding them costs the main thread more
        // than the round trip they save (the prerendered pages list their own route's chunks already).
        modulePreload: {
          resolveDependencies: (_file, dependencies, { hostType }) =>
            hostType === 'html' ? dependencies : [],
        },
      },
}));
