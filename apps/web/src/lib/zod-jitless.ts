import * as z from 'zod/v4';

/**
 * Every `import … from 'zod'` of the web app (and of the shared schemas it bundles) resolves here
 * (vite.config.ts), so this runs before the first schema is built. The site's content security policy
 * (`script-src 'self'`) forbids `new Function`: left alone, zod would try it once to see whether it may
 * compile its object parsers (a policy violation the browser reports, for nothing), then parse without
 * compiling anyway. Jitless, it goes straight to its plain parsers.
 */
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
