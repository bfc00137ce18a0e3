import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from './errors';
import { hookList, onlyReads } from './route-hooks';

/**
 * No text a client sends may carry control characters (U+0000–U+001F, U+007F) or bidirectional
 * controls (U+202A–U+202E, U+2066–U+2069), docs/design.md: a NUL breaks PostgreSQL text, line
 * breaks forge log lines and bank references, and bidi controls make an address or a name read
 * differently from what it is. Checked for every route, before its schema, so no route can forget
 * it: the query string and path parameters when the request arrives, a body once it is parsed. Staff
 * free-text fields (notes, reasons) may keep line breaks and tabs: `config: { multilineFields }`.
 * Multipart forms (the KYC upload) are read by their handler and checked by their shared schema.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Top-level body fields that may hold line breaks and tabs (staff notes and reasons). */
    multilineFields?: readonly string[];
  }
}

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** True when the text holds a character no field accepts (line breaks and tabs only where allowed). */
export function hasForbiddenCharacters(text: string, allowLineBreaks = false): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      if (allowLineBreaks && (c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN)) continue;
      return true;
    }
    if (c === 0x7f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
  }
  return false;
}

/**
 * The first field (dotted path, as validation errors name them) whose text or key is refused. Walked
 * with a stack of its own, so a deeply nested body cannot overflow the call stack.
 */
export function firstForbiddenField(
  root: unknown,
  multilineFields: ReadonlySet<string> = new Set(),
): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (hasForbiddenCharacters(value, multilineFields.has(path))) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => pending.push({ value: item, path: join(path, String(index)) }));
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        const itemPath = join(path, key);
        if (hasForbiddenCharacters(key)) return itemPath;
        pending.push({ value: item, path: itemPath });
      }
    }
  }
  return undefined;
}

/**
 * The refusal of a request whose address carries a refused character in its query string or path
 * parameters, or undefined. Both are read when the request arrives, so the app's first hook (app.ts)
 * checks them for every route, the pages and the not-found answer included.
 */
export function addressTextRefusal(request: FastifyRequest): AppError | undefined {
  try {
    if (hasEntries(request.params)) assertCleanText(request.params);
    if (hasEntries(request.query)) assertCleanText(request.query);
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

/**
 * The body rule, on every route that can take a body (any method but GET, HEAD and OPTIONS): after the
 * body is parsed, before any schema or handler sees it. A read runs no such step at all (Fastify skips
 * a stage with no hooks), which matters on the API's commonest calls. Register before the routes.
 */
export function registerTextInputRules(app: FastifyInstance): void {
  /** The check of one route's body; the fields that may hold line breaks are the route's own. */
  const bodyCheck = (multilineFields: ReadonlySet<string>): preValidationHookHandler => {
    return (request, _reply, done) => {
      const { body } = request;
      // A Buffer body is a signed webhook's raw bytes, checked by its signature, never read as text.
      if (body !== undefined && body !== null && !Buffer.isBuffer(body)) {
        try {
          assertCleanText(body, multilineFields);
        } catch (error) {
          done(error as Error);
          return;
        }
      }
      done();
    };
  };
  app.addHook('onRoute', (route) => {
    if (onlyReads(route)) return;
    const checkBody = bodyCheck(new Set(route.config?.multilineFields ?? []));
    route.preValidation = [checkBody, ...hookList(route.preValidation)];
  });
}

/** False for a missing or empty params or query object (nothing in it to check). */
function hasEntries(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return value !== undefined && value !== null;
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** Throws 400 VALIDATION_FAILED naming the first field that holds a refused character. */
export function assertCleanText(value: unknown, multilineFields?: ReadonlySet<string>): void {
  const field = firstForbiddenField(value, multilineFields);
  if (field === undefined) return;
  const name = field === '' ? 'body' : field;
  throw new AppError('VALIDATION_FAILED', `Remove invisible or control characters from ${name}.`, {
    [name]: 'Remove invisible or control characters.',
  });
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A parsed JSON object, query string or route parameters (the last two have no Object prototype). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}
