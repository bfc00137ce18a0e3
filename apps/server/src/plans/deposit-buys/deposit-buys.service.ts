import {
  DEPOSIT_BUY_MESSAGES,
  type DepositBuySetting,
  type DepositBuySettingRequest,
} from '@offzero/shared/api/deposit-buys';
import type { BankWebhooks } from '../../bank/bank-webhooks';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { keepFirstBuyAnswer } from '../first-buy-answer';
import { ownConfirmedEntry } from '../use-cases/create-plan';
import type { PlanDeps } from '../use-cases/plan-deps';
import {
  findDepositBuysToCarry,
  takeStaleDepositBuy,
  findDepositBuySetting,
  saveDepositBuySetting,
} from './deposit-buys.repository';
import { claimDepositBuy, makeDepositBuy, releaseDepositBuy } from './make-deposit-buy';

/** A claimed deposit buy untouched this long belongs to a worker that stopped: the job makes it. */
const STALE_CLAIM_MS = 60_000;

/**
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): the customer's setting, the
 * bank's inbound credits turned into buys, and the job's part (claims left behind, holds that ended).
 */
export function createDepositBuysService(deps: PlanDeps) {
  return {
    async setting(user: UserRow): Promise<DepositBuySetting> {
      const row = await findDepositBuySetting(deps.db, user.id);
      return { enabled: row?.enabled ?? false, payoutAddressId: row?.payoutAddressId ?? null };
    },

    /**
     * Turns it on — to one of the customer's confirmed entries, with a new customer's answer to the
     * first-buy question kept for the buys — or off (the entry and answer are kept for next time).
     */
    async saveSetting(user: UserRow, body: DepositBuySettingRequest): Promise<DepositBuySetting> {
      const current = await findDepositBuySetting(deps.db, user.id);
      if (!body.enabled) {
        const row = await saveDepositBuySetting(
          deps.db,
          {
            userId: user.id,
            enabled: false,
            payoutAddressId: current?.payoutAddressId ?? null,
            scamCheck: current?.scamCheck ?? null,
          },
          deps.now(),
        );
        return { enabled: row.enabled, payoutAddressId: row.payoutAddressId };
      }
      if (!body.payoutAddressId) throw new AppError('BAD_REQUEST', DEPOSIT_BUY_MESSAGES.addressRequired);
      const entry = await ownConfirmedEntry(deps.db, user.id, body.payoutAddressId);
      const scamCheck = await keepFirstBuyAnswer(deps, {
        userId: user.id,
        route: 'inbound-credit-buy',
        scamCheck: body.scamCheck ?? current?.scamCheck ?? undefined,
        valueUsd: 0,
      });
      const row = await saveDepositBuySetting(
        deps.db,
        { userId: user.id, enabled: true, payoutAddressId: entry.id, scamCheck },
        deps.now(),
      );
      return { enabled: row.enabled, payoutAddressId: row.payoutAddressId };
    },

    /** Subscribes to the bank's inbound credits, after inbound matching stored each one. */
    subscribe(webhooks: Pick<BankWebhooks, 'onInboundCredit'>): void {
      webhooks.onInboundCredit(async (tx, credit) => {
        const claimed = await claimDepositBuy(tx, credit);
        if (!claimed) return undefined;
        return async () => {
          // A bank or price outage leaves it claimed: the run job makes it later.
          await makeDepositBuy(deps, claimed).catch((error: unknown) =>
            deps.log.warn({ err: error, depositBuyId: claimed.id }, 'deposit buy waits for a retry'),
          );
        };
      });
    },

    /** The run job's part: claims a stopped worker left, and holds that are over. */
    async carryOn(): Promise<void> {
      const now = deps.now();
      const staleAt = new Date(now.getTime() - STALE_CLAIM_MS);
      const due = await findDepositBuysToCarry(deps.db, { staleAt, now });
      for (const found of due) {
        const buy =
          found.status === 'claimed' ? await takeStaleDepositBuy(deps.db, found.id, staleAt) : found;
        if (!buy) continue; // another worker took it over
        const step = buy.status === 'claimed' ? makeDepositBuy(deps, buy) : releaseDepositBuy(deps, buy);
        await step.catch((error: unknown) =>
          deps.log.warn({ err: error, depositBuyId: buy.id }, 'deposit buy waits for a retry'),
        );
      }
    },
  };
}

export type DepositBuysService = ReturnType<typeof createDepositBuysService>;
