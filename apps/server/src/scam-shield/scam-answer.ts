import { SCAM_MESSAGES, type ScamCheck } from '@offzero/shared/places/scam-shield';
import { openCase } from '../cases/cases.repository';
import type { Database } from '../db/database';
import { AppError } from '../http/errors';
import { recordShieldDecision } from '../places/places.repository';

/**
 * A customer who says someone asked them to buy is stopped before anything is priced or saved
 * (docs/design.md, "Places and the scam shield"): no order, the scam guidance (who to call) in the
 * answer, a `scam_suspected` case for staff, and the decision in the shield's audit trail. Whatever
 * their age as a customer: the answer is theirs to give at any buy.
 */
export async function stopWhenSomeoneAsked(
  deps: { db: Database; now: () => Date },
  userId: string,
  scamCheck: ScamCheck | undefined,
  order: { valueUsd: number; walletAddress: string | null },
): Promise<void> {
  if (!scamCheck?.someoneAskedMe) return;
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await openCase(tx, {
      userId,
      rule: 'scam_suspected',
      triggerKey: `scam-answer:${now.toISOString()}`,
      evidence: { answer: scamCheck, valueUsd: order.valueUsd, walletAddress: order.walletAddress, at: now },
      now,
    });
    await recordShieldDecision(tx, {
      userId,
      decision: 'scam_someone_asked',
      route: 'order-save',
      detail: { ...scamCheck, valueUsd: order.valueUsd },
    });
  });
  throw new AppError('SCAM_SUSPECTED', SCAM_MESSAGES.someoneAsked);
}
