import { useQuery } from '@tanstack/react-query';
import { orderTimelineResponseSchema, type Order } from '@offzero/shared/api/orders';
import { apiGet } from '../../../lib/api-client';
import { ordersQueryKey } from '../../../domain/orders';

/**
 * `GET /api/order/:id/timeline`: the order's steps in plain words. Keyed under the order lists, so
 * whatever refreshes them (an order event, a cancellation) refreshes the timeline too; the order's
 * status, flag and confirmations are in the key, so a change seen in the list reads it again at once.
 */
export function useOrderTimeline(order: Pick<Order, '_id' | 'status' | 'flag' | 'confirmations'>) {
  return useQuery({
    queryKey: [...ordersQueryKey, 'timeline', order._id, order.status, order.flag, order.confirmations],
    queryFn: ({ signal }) =>
      apiGet(`/order/${encodeURIComponent(order._id)}/timeline`, {
        schema: orderTimelineResponseSchema,
        signal,
      }),
    placeholderData: (previous) => previous,
  });
}
