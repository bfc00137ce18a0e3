import type { QueryClient } from '@tanstack/react-query';
import { limitsQueryOptions } from '../../domain/limits';
import { payoutAddressesQueryOptions } from '../../domain/payout-addresses';
import { tradeSettingsQueryOptions } from './api/get-trade-settings';

/**
 * The reads the widget's steps make: the trading terms and, for a customer, the limits and the payout
 * address book. The steps that show the limits and the address book mount only once the terms have
 * arrived, so their own reads would start a round trip later. A screen that shows the widget only after
 * reads of its own (the dashboard waits for the order list, to resume a pending order) starts these with
 * its own, through `useStartReads`.
 */
export function startTradeWidgetReads(queryClient: QueryClient, userId: string | null): void {
  void queryClient.prefetchQuery(tradeSettingsQueryOptions(userId ?? 'visitor'));
  if (userId === null) return;
  void queryClient.prefetchQuery(limitsQueryOptions(userId));
  void queryClient.prefetchQuery(payoutAddressesQueryOptions(userId));
}
