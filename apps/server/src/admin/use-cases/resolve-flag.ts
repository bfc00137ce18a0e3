import type { SignedInUser } from '../../auth/sessions';
import type { OrderRow } from '../../db/schema';
import { clearFlag } from '../admin-orders.repository';
import { assertOrderAction } from '../order-action-rules';
import { actionFactsIn, adminActor, runOrderAction, type OrderActionDeps } from '../run-order-action';

/** A person looked into a flagged order: the flag goes, what it said stays in the flag note. */
export async function resolveFlag(
  deps: OrderActionDeps,
  request: { staff: SignedInUser; orderId: string; note: string },
): Promise<OrderRow> {
  const { note } = request;
  return runOrderAction(deps, { ...request, action: 'order.resolve_flag' }, async (tx, order) => {
    assertOrderAction('resolve-flag', order, await actionFactsIn(tx, deps, order));
    const updated = await clearFlag(
      tx,
      order.id,
      `resolved: ${note} (was ${order.flag}: ${order.flagNote ?? ''})`,
      { actor: adminActor(request.staff), resolution: 'reviewed' },
    );
    return updated ?? order;
  });
}
