import { QUOTE_MESSAGES } from '@offzero/shared/api/quotes';

// Messages of the trade widget that the specification does not word; each matches the server's own
// wording for the same situation, so a customer reads one sentence whichever side notices first.

export const PRICES_UNAVAILABLE_MESSAGE =
  'Live prices are unavailable right now, so we cannot quote. Try again in a few minutes.';

export const QUOTE_EXPIRED_MESSAGE = QUOTE_MESSAGES.expired;
