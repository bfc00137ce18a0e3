import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getPrices, PRICE_REFRESH_MS, priceQueryKey, type Prices } from './api/get-price';
import { useNow } from './utils/countdown';

/**
 * The price context: prices fetched on load and every 60 seconds, and the
 * 'refresh in Ns' countdown, set to 60 after each successful fetch and decreasing by one each second.
 * Mounted around every trade widget; quotes are recomputed from these prices whenever they change.
 */

export interface PriceContextValue {
  prices: Prices | null;
  /** Seconds until the next fetch, 0 while there are no prices. */
  secondsToRefresh: number;
}

const PriceContext = createContext<PriceContextValue | null>(null);

export function PriceProvider({ children }: { children: ReactNode }) {
  const { data, dataUpdatedAt } = useQuery({
    queryKey: priceQueryKey,
    queryFn: ({ signal }) => getPrices(signal),
    refetchInterval: PRICE_REFRESH_MS,
    // A price is fresh for the 60 seconds the countdown shows; a failure waits for the next turn.
    staleTime: PRICE_REFRESH_MS,
    retry: false,
    // Back in a tab left in the background, the price is read at once rather than at the next tick.
    refetchOnWindowFocus: true,
  });
  const now = useNow();
  const secondsToRefresh = data
    ? Math.max(0, Math.min(60, 60 - Math.floor((now - dataUpdatedAt) / 1000)))
    : 0;

  const value = useMemo<PriceContextValue>(
    () => ({
      prices: data ?? null,
      secondsToRefresh,
    }),
    [data, secondsToRefresh],
  );
  return <PriceContext.Provider value={value}>{children}</PriceContext.Provider>;
}

export function usePrices(): PriceContextValue {
  const value = useContext(PriceContext);
  if (!value) throw new Error('usePrices must be used inside PriceProvider');
  return value;
}
