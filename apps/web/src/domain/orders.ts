import { useQuery, useQueryClient } from '@tanstack/react-query';
import { orderListResponseSchema, type Order } from '@offzero/shared/api/orders';
import { apiGet, isAbortError } from '../lib/api-client';
import { useRealtimeConnectedEffect, useRealtimeEvent } from '../lib/realtime';
import { useSession } from '../lib/session';

/** Every cached order list starts with this key; anything that changes an order invalidates it. */
export const ordersQueryKey = ['orders'] as const;

/** `GET /api/order/list?userId=<own id>[&limit=N]`: the customer's orders, newest first. */
export async function getOrders(userId: string, limit?: number, signal?: AbortSignal): Promise<Order[]> {
  const query = new URLSearchParams({ userId });
  if (limit) query.set('limit', String(limit));
  const answer = await apiGet(`/order/list?${query.toString()}`, { schema: orderListResponseSchema, signal });
  return answer.result.orders;
}

export function useOrders({
  limit,
  refetchInterval,
  enabled = true,
}: { limit?: number; refetchInterval?: number | false; enabled?: boolean } = {}) {
  const userId = useSession()?.userId ?? '';
  return useQuery({
    queryKey: [...ordersQueryKey, userId, limit ?? 'all'],
    queryFn: async ({ signal }) => {
      try {
        return await getOrders(userId, limit, signal);
      } catch (error) {
        // A failed order list is logged; the screen shows its empty or error state. A read
        // cancelled because the customer moved on (or a newer read replaced it) is no failure.
        if (!isAbortError(error)) console.error('Could not load the orders', error);
        throw error;
      }
    },
    enabled: enabled && userId !== '',
    refetchInterval,
    staleTime: 0,
  });
}

/**
 * Keeps every cached order list current: any order event from the realtime channel reads them again,
 * and so does every (re)connection of the channel, so an `order-updated` sent while the socket was
 * down is not missed.
 */
export function useOrdersStayFresh() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
  useRealtimeEvent('order-updated', refresh);
  useRealtimeEvent('new-transaction', refresh);
  useRealtimeConnectedEffect(refresh);
}
