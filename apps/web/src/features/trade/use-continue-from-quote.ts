import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import type { useTradeAccount } from './api/get-account';
import type { TradeSettings } from './api/get-trade-settings';
import { entryProblem, type AmountEntry } from './utils/quote-fields';
import { maximumOrderMessage, minimumOrderMessage, tradeCheckFailure } from './utils/trade-checks';
import { PRICES_UNAVAILABLE_MESSAGE } from './utils/messages';

/**
 * The quote step's Continue, for buy and sell alike: a visitor goes to the login page;
 * a customer passes the spec's checks in order, then needs a live price and an amount at or above the
 * minimum before `next` runs. Each refusal is a toast; an amount beyond anything the field reads is
 * refused as above the maximum.
 */
export function useContinueFromQuote(
  kind: 'buy' | 'sell',
  trade: ReturnType<typeof useTradeAccount>,
  settings: TradeSettings,
) {
  const session = useSession();
  const navigate = useNavigate();
  return (entry: AmountEntry, quote: { valueCents: bigint } | null, hasPrices: boolean, next: () => void) => {
    if (!session) {
      void navigate(paths.login);
      return;
    }
    if (!trade.account) {
      if (trade.error) toast.error(errorMessage(trade.error));
      return;
    }
    const failure = tradeCheckFailure(kind, trade.account, quote?.valueCents ?? 0n, settings.maxOrderCents);
    if (failure) {
      toast.error(failure);
      return;
    }
    const problem = entryProblem(entry);
    // More than the field reads at all is above the maximum too; it is no reason to name the minimum.
    if (problem?.kind === 'too_large') {
      toast.error(maximumOrderMessage(settings.maxOrderCents));
      return;
    }
    if (!hasPrices) {
      toast.error(PRICES_UNAVAILABLE_MESSAGE);
      return;
    }
    if (!quote) {
      toast.error(
        problem?.kind === 'unreadable' ? problem.message : minimumOrderMessage(settings.minOrderCents),
      );
      return;
    }
    next();
  };
}
