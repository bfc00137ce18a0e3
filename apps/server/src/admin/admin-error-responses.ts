import { errorBodySchema } from '@offzero/shared/api/errors';
import { errorResponses } from '../http/error-responses';

/**
 * The error answers every back-office route can give, as response schemas: a request that is not
 * valid (400), no session (401), not staff or no CSRF token (403), and our own failure (500).
 */
export const adminErrorResponses = errorResponses(400, 401, 403, 500);

/** Plus: the order, customer or case does not exist (404). */
export const adminLookupErrorResponses = { ...adminErrorResponses, 404: errorBodySchema } as const;

/** Plus: the action does not fit the target's current state (409). */
export const adminActionErrorResponses = { ...adminLookupErrorResponses, 409: errorBodySchema } as const;
