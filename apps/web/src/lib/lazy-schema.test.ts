import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySharedSchemas } from '../../build/lazy-schemas';
import { lazySchema } from './lazy-schema';

const here = path.dirname(fileURLToPath(import.meta.url));

const transform = (code: string, file = path.join(here, 'example.ts')) => {
  const plugin = lazySharedSchemas() as { transform: (code: string, id: string) => { code: string } | null };
  return plugin.transform(code, file)?.code ?? null;
};

describe('the web build’s lazy schemas', () => {
  it('wraps top-level zod schemas and the schemas derived from them, and nothing else', () => {
    const out = transform(
      [
        "import { z } from 'zod';",
        'export const emailSchema = z.string().email();',
        'const login = z.object({ email: emailSchema });',
        'export const signUp = login.extend({ name: z.string() });',
        'export const limit = 5;',
        'export const label = format(limit);',
        'function inner() { const local = z.string(); return local; }',
      ].join('\n'),
    )!;
    expect(out).toContain(
      'export const emailSchema = /* @__PURE__ */ __lazySchema(() => z.string().email());',
    );
    expect(out).toContain(
      'const login = /* @__PURE__ */ __lazySchema(() => z.object({ email: emailSchema }));',
    );
    expect(out).toContain(
      'export const signUp = /* @__PURE__ */ __lazySchema(() => login.extend({ name: z.string() }));',
    );
    expect(out).toContain('export const limit = 5;');
    expect(out).toContain('export const label = format(limit);');
    expect(out).toContain('const local = z.string();');
    expect(out.startsWith('import { lazySchema as __lazySchema } from ')).toBe(true);
  });

  it('leaves test files and files outside the app and the shared package alone', () => {
    const code = "import { z } from 'zod';\nexport const a = z.string();";
    expect(transform(code, path.join(here, 'example.test.ts'))).toBeNull();
    expect(transform(code, '/elsewhere/example.ts')).toBeNull();
  });

  it('builds a schema on first use, once, and it accepts and refuses what the schema itself does', () => {
    const build = vi.fn(() => z.object({ amount: z.number().positive() }).strict());
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();

    expect(schema.safeParse({ amount: 2 })).toEqual({ success: true, data: { amount: 2 } });
    expect(schema.safeParse({ amount: -1 }).success).toBe(false);
    expect(schema.safeParse({ amount: 2, status: 'paid' }).success).toBe(false);
    expect(schema.extend({ note: z.string() }).parse({ amount: 1, note: 'x' })).toEqual({
      amount: 1,
      note: 'x',
    });
    expect(schema instanceof z.ZodObject).toBe(true);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
