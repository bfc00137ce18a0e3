import { desc, eq, sum } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { userIdSchema, type ReferralRecord } from '@offzero/shared/api/user-settings';
import { assertOwnId, requireSignedIn } from '../auth/sessions';
import { referralRewards } from '../db/schema';

/**
 * Referral rewards the signed-in customer earned. In this API `referred_id` is the signed-in
 * referrer's own id (DESIGN.md section 3) and each record's `referrer_id` names the trading customer.
 */
export const referralRoutes: FastifyPluginAsyncZod = async (app) => {
  const query = { querystring: z.strictObject({ referred_id: userIdSchema }) };
  const { db } = app.database;

  app.get(
    '/api/referral/totalrewards',
    { preHandler: requireSignedIn(app), schema: query },
    async (request) => {
      const { user } = assertOwnId(request, request.query.referred_id);
      const [row] = await db
        .select({ total: sum(referralRewards.rewardCents) })
        .from(referralRewards)
        .where(eq(referralRewards.referrerUserId, user.id));
      return { sumOfRewards: centsToUsdNumber(BigInt(row?.total ?? '0')) };
    },
  );

  app.get('/api/referral/history', { preHandler: requireSignedIn(app), schema: query }, async (request) => {
    const { user } = assertOwnId(request, request.query.referred_id);
    const rows = await db
      .select()
      .from(referralRewards)
      .where(eq(referralRewards.referrerUserId, user.id))
      .orderBy(desc(referralRewards.createdAt))
      .limit(500);
    const referrals: ReferralRecord[] = rows.map((row) => ({
      _id: row.id,
      referrer_id: row.tradingUserId,
      referred_id: row.referrerUserId,
      platform_fee: centsToUsdNumber(row.platformFeeCents),
      reward_amount: centsToUsdNumber(row.rewardCents),
      order_id: row.orderId,
      createdAt: row.createdAt.toISOString(),
    }));
    return { referrals };
  });
};
