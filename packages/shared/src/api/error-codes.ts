// Free of zod: the web app's API client reads these on every page, before any schema is needed.

/**
 * Every error answer of the API is `{ message, code, errors? }`: `message` is text a customer can act
 * on, `code` is what clients decide on (never the message text), `errors` names rejected fields.
 * Each code maps to one HTTP status, here, for both sides.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  /** A quote no longer matches the server's price or fees: read them again and re-quote. */
  PRICE_CHANGED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_INVALID: 403,
  NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  CONFLICT: 409,
  ACCOUNT_EXISTS: 409,
  GONE: 410,
  /** A locked quote ran out before the order was saved: the customer gets a new quote (docs/design.md). */
  QUOTE_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** An Idempotency-Key sent again with a different request (docs/design.md). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The client's IP maps to a country OffZero may not serve (docs/design.md). */
  BLOCKED_COUNTRY: 451,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** Changing a verified phone or e-mail needs the step-up code sent to the current e-mail first. */
  STEP_UP_REQUIRED: 403,
  /** A change guarded by passkey step-up: confirm it with a passkey assertion made for it (docs/design.md). */
  PASSKEY_STEP_UP_REQUIRED: 403,
  /** Production: this admin must enrol two-factor authentication before using the back office. */
  MFA_ENROLMENT_REQUIRED: 403,
  /** The same admin asked for a four-eyes action twice: a second admin must carry it out. */
  SECOND_APPROVER_REQUIRED: 409,
  /** A sell needs the customer's Form W-9 on file first (docs/design.md). */
  W9_REQUIRED: 400,
  /** The customer's place (residence state) is closed for this kind of trade (docs/design.md). */
  PLACE_CLOSED: 403,
  /** A new customer's first buy needs the scam question answered first. */
  SCAM_CHECK_REQUIRED: 400,
  /** The customer said someone asked them to buy: no order, the scam guidance instead. */
  SCAM_SUSPECTED: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

const knownCodes: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `value` is one of the codes above (a newer server's new code is not). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}

/** The code a bare status stands for, for answers that carry no code of their own. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 410:
      return 'GONE';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'IDEMPOTENCY_KEY_REUSED';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
  }
}

/**
 * The sentence a "too many" answer ends with, saying exactly when to try again: the clock time and how
 * long that is from now. The server writes it in UTC (it does not know the customer's time zone); the
 * web app rewrites it in the browser's own zone from the answer's `retryAt`.
 */
export function tryAgainSentence(retryAt: Date, options: { now?: Date; timeZone?: string } = {}): string {
  const now = options.now ?? new Date();
  const waitMs = Math.max(0, retryAt.getTime() - now.getTime());
  const clock = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.timeZone === 'UTC' ? { timeZoneName: 'short' } : {}),
  }).format(retryAt);
  const seconds = Math.ceil(waitMs / 1000);
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
  return `Try again at ${clock} (in ${wait}).`;
}

/** Finds the sentence `tryAgainSentence` wrote, so a client can say it again in its own time zone. */
export const TRY_AGAIN_SENTENCE = /Try again at [^()]+ \(in [^)]+\)\.$/;
