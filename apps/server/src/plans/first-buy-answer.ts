import { SCAM_MESSAGES, type ScamCheck } from '@offzero/shared/places/scam-shield';
import type { Database } from '../db/database';
import { ShieldRefusal, recordingShieldRefusals, type MoneyRoute } from '../places/place-check';
import { findResidence } from '../places/places.repository';
import { isNewCustomer } from '../scam-shield/buy-shield';
import { stopWhenSomeoneAsked } from '../scam-shield/scam-answer';
import { hasEarlierBuy } from '../scam-shield/scam-shield.repository';

/**
 * The scam shield's first-buy question for buys the customer starts ahead of time — a recurring plan,
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys" and "Places and the scam shield").
 * The answer is asked when the customer sets them up, as the checkout asks it, and kept: each buy they
 * make later passes it to the order save, so a new customer's run is not refused for a question nobody
 * is there to answer. "Someone asked me" stops it as it stops a buy (400, guidance, a case); a new
 * customer before their first buy without the answer is told to give it. Answers what to keep.
 */
export async function keepFirstBuyAnswer(
  deps: { db: Database; now: () => Date },
  request: { userId: string; route: MoneyRoute; scamCheck: ScamCheck | undefined; valueUsd: number },
): Promise<ScamCheck | null> {
  const { userId, scamCheck } = request;
  await stopWhenSomeoneAsked(deps, userId, scamCheck, { valueUsd: request.valueUsd, walletAddress: null });
  return recordingShieldRefusals(deps.db, userId, request.route, async () => {
    if (scamCheck && !scamCheck.ownWallet) {
      throw new ShieldRefusal('BAD_REQUEST', SCAM_MESSAGES.notOwnWallet, 'scam_question_missing', {
        ownWallet: false,
      });
    }
    if (scamCheck) return scamCheck;
    const newCustomer = isNewCustomer(await findResidence(deps.db, userId), deps.now());
    if (newCustomer && !(await hasEarlierBuy(deps.db, userId))) {
      throw new ShieldRefusal(
        'SCAM_CHECK_REQUIRED',
        SCAM_MESSAGES.questionMissing,
        'scam_question_missing',
        {},
      );
    }
    return null;
  });
}
