import { errorBodySchema } from '@offzero/shared/api/errors';

/**
 * Response schemas for the error statuses a route can answer: every one is `{ message, code, errors? }`
 * (packages/shared/src/api/errors.ts). Spread into a route's `response` beside its success schema.
 */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
