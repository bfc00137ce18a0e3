import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHARED_SOURCES = path.resolve(here, '../../../packages/shared/src') + path.sep;
const WEB_SOURCES = path.resolve(here, '../src') + path.sep;
const HELPER = path.resolve(here, '../src/lib/lazy-schema.ts');

/** The name at the start of a call chain (`z` in `z.object({...}).strict()`), if it is an identifier. */
function chainRoot(expression: ts.Expression): string | null {
  let current: ts.Expression = expression;
  for (;;) {
    if (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current)) current = current.expression;
    else if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current)
    )
      current = current.expression;
    else return ts.isIdentifier(current) ? current.text : null;
  }
}

/**
 * For the web build: every top-level `const x = z.…` of the shared modules and of the app's own becomes
 * `const x = lazySchema(() => z.…)` (src/lib/lazy-schema.ts), so a page builds only the schemas it
 * uses, when it first uses them. So does a schema derived from another (`const b = aSchema.extend(…)`:
 * one declared above in the same module, or any name ending in `Schema`, the code's convention for
 * schemas). What the schemas accept is unchanged; the server builds its own copy of the shared code
 * without this.
 */
export function lazySharedSchemas(): Plugin {
  return {
    name: 'offzero:lazy-shared-schemas',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      const inScope = file.startsWith(SHARED_SOURCES) || file.startsWith(WEB_SOURCES);
      if (!inScope || !/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file) || file === HELPER) return null;
      const source = ts.createSourceFile(
        file,
        code,
        ts.ScriptTarget.Latest,
        true,
        file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
      );
      const schemas = new Set<string>();
      const isSchema = (root: string | null) =>
        root !== null && (root === 'z' || schemas.has(root) || root.endsWith('Schema'));
      const edits: { start: number; end: number }[] = [];
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          if (init && ts.isCallExpression(init) && isSchema(chainRoot(init))) {
            edits.push({ start: init.getStart(source), end: init.getEnd() });
            if (ts.isIdentifier(declaration.name)) schemas.add(declaration.name.text);
          }
        }
      }
      if (edits.length === 0) return null;
      let out = code;
      for (const { start, end } of edits.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ __lazySchema(() => ${out.slice(start, end)})${out.slice(end)}`;
      }
      return {
        code: `import { lazySchema as __lazySchema } from ${JSON.stringify(HELPER)};\n${out}`,
        map: null,
      };
    },
  };
}
