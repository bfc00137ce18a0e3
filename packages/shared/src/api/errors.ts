import { z } from 'zod';
import { ERROR_CODES } from './error-codes';

export {
  codeForStatus,
  ERROR_CODES,
  ERROR_STATUS,
  isErrorCode,
  TRY_AGAIN_SENTENCE,
  tryAgainSentence,
  type ErrorCode,
} from './error-codes';

export const errorCodeSchema = z.enum(ERROR_CODES);

export const errorBodySchema = z.object({
  message: z.string(),
  code: errorCodeSchema,
  errors: z.record(z.string(), z.string()).optional(),
  /** On a 429: the moment (ISO 8601) the same request will be accepted again. */
  retryAt: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
