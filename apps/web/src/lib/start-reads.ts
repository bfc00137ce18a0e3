import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSession } from './session';

/**
 * Starts, when a screen or widget opens, the reads its parts make only once they mount (parts that
 * wait for another answer first), so they go out together instead of a round trip apart. The parts'
 * own hooks then find the answer read, or join the read under way.
 *
 * `start` asks for them with `queryClient.prefetchQuery`, which skips a read under way or still fresh
 * (screen-freshness.ts), for the signed-in customer (null for a visitor). Pass a function declared
 * once, outside the component: it runs again only when the customer changes.
 */
export function useStartReads(start: (queryClient: QueryClient, userId: string | null) => void): void {
  const queryClient = useQueryClient();
  const userId = useSession()?.userId ?? null;
  useEffect(() => start(queryClient, userId), [start, queryClient, userId]);
}
