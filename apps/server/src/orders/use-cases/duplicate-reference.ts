import type { Transaction } from '../../db/database';
import type { OrderRow } from '../../db/schema';
import {
  findOtherOrderWithBankReference,
  lockBankReference,
  normalizeBankReference,
} from '../bank-reference.repository';

/**
 * docs/design.md: a bank reference already used on another order flags the later order
 * `duplicate_reference` (compared case- and space-insensitively), so one transfer cannot be claimed
 * for two orders. Answers the flag to store, or undefined when the reference is new. A flag the order
 * already has stays (a person must still resolve it); the duplicate is added to its note.
 */
export async function duplicateReferenceFlag(
  tx: Transaction,
  order: Pick<OrderRow, 'id' | 'flag' | 'flagNote'>,
  reference: string,
): Promise<{ flag: string; flagNote: string } | undefined> {
  const normalized = normalizeBankReference(reference);
  await lockBankReference(tx, normalized);
  const other = await findOtherOrderWithBankReference(tx, normalized, order.id);
  if (!other) return undefined;
  const note = `duplicate reference: "${reference}" is already on order #${other.id.slice(0, 8)}`;
  return order.flag
    ? { flag: order.flag, flagNote: `${order.flagNote ?? order.flag}; then ${note}` }
    : { flag: 'duplicate_reference', flagNote: note };
}
