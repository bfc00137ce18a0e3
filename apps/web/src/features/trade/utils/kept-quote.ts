import { useEffect } from 'react';
import type { QuoteForm } from '@offzero/shared/api/orders';
import type { ZodForm } from '../../../lib/forms';
import { forgetKeptAcrossLogin, keepAcrossLogin, peekKeptAcrossLogin } from '../../../lib/session-return';
import type { AmountEntry } from './quote-fields';
import type { TradeSide } from './trade-checks';

/** What the customer had typed in the trade widget when their session ended: back after the login. */
export interface KeptQuote {
  side: TradeSide;
  entry: AmountEntry;
}

const NAME = 'trade-quote';
// Longer than any amount a field takes: what is longer was not typed there.
const MAX_TEXT = 64;

function asKeptQuote(value: unknown): KeptQuote | null {
  if (typeof value !== 'object' || value === null) return null;
  const { side, source, text } = value as Record<string, unknown>;
  if (side !== 'buy' && side !== 'sell') return null;
  if (source !== 'usd' && source !== 'btc') return null;
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT) return null;
  return { side, entry: { source, text } };
}

/** The quote kept when the session ended, if any (it stays offered until `forgetKeptQuote`). */
export function keptQuote(): KeptQuote | null {
  return peekKeptAcrossLogin(NAME, asKeptQuote);
}

/** Once the widget has opened with the kept quote: it is not offered again. */
export function useForgetKeptQuote(): void {
  useEffect(() => forgetKeptAcrossLogin(NAME), []);
}

/** While the flow is open, what is typed in its quote is kept if the session ends. */
export function useKeepQuoteAcrossLogin(side: TradeSide, form: ZodForm<QuoteForm, QuoteForm>): void {
  useEffect(
    () =>
      keepAcrossLogin(NAME, () => {
        const { source, text } = form.getValues();
        return text.trim() === '' ? null : { side, source, text };
      }),
    [side, form],
  );
}
