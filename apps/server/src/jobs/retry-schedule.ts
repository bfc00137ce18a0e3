/**
 * When a delivery that failed is tried again (the outbox's messages, the inbox's webhooks): the first
 * retry a minute after the first failure, each wait twice the one before, and after the last of
 * `MAX_DELIVERY_ATTEMPTS` tries (about two hours after the first) the delivery is parked as failed,
 * with its error, for the back office. docs/design.md asks for at least 5 tries over an hour.
 */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const FIRST_RETRY_MS = 60_000;

/** The wait after the `attemptsMade`-th failed try (1 for the first), or null when it was the last. */
export function retryDelayMs(attemptsMade: number): number | null {
  if (attemptsMade >= MAX_DELIVERY_ATTEMPTS) return null;
  return FIRST_RETRY_MS * 2 ** (Math.max(1, attemptsMade) - 1);
}
