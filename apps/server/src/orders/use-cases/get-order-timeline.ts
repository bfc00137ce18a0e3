import type { OrderTimelineResponse } from '@offzero/shared/api/orders';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { toOrderTimeline } from '../order-timeline.presenter';
import { findOrderEvents } from '../order.repository';
import { getCustomerOrder } from './get-customer-order';

/** The customer's timeline of their own order; another customer's order answers 404. */
export async function getOrderTimeline(
  db: Database,
  user: UserRow,
  orderId: string,
  confirmationsRequired: number,
): Promise<OrderTimelineResponse> {
  const order = await getCustomerOrder(db, user, orderId);
  const events = await findOrderEvents(db, order.id);
  return toOrderTimeline(order, events, confirmationsRequired);
}
