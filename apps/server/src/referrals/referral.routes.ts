import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { referralRecordSchema, userIdSchema, type ReferralRecord } from '@offzero/shared/api/user-settings';
import { assertOwnId, requireSignedIn } from '../auth/sessions';
import type { ReferralService } from './referral.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 500: errorBodySchema };

/**
 * Referral rewards the signed-in customer earned. In this API `referred_id` is the signed-in
 * referrer's own id (docs/design.md) and each record's `referrer_id` names the trading customer.
 */
export const referralRoutes =
  (referrals: ReferralService): FastifyPluginAsyncZod =>
  async (app) => {
    const querystring = z.strictObject({ referred_id: userIdSchema });

    app.get(
      '/api/referral/totalrewards',
      {
        preHandler: requireSignedIn(app),
        schema: { querystring, response: { 200: z.object({ sumOfRewards: z.number() }), ...errors } },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.query.referred_id);
        return { sumOfRewards: centsToUsdNumber(await referrals.totalEarnedCents(user.id)) };
      },
    );

    app.get(
      '/api/referral/history',
      {
        preHandler: requireSignedIn(app),
        schema: {
          querystring,
          response: { 200: z.object({ referrals: z.array(referralRecordSchema) }), ...errors },
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.query.referred_id);
        const rows = await referrals.history(user.id);
        const records: ReferralRecord[] = rows.map((row) => ({
          _id: row.id,
          referrer_id: row.tradingUserId,
          referred_id: row.referrerUserId,
          platform_fee: centsToUsdNumber(row.platformFeeCents),
          reward_amount: centsToUsdNumber(row.rewardCents),
          order_id: row.orderId,
          createdAt: row.createdAt.toISOString(),
        }));
        return { referrals: records };
      },
    );
  };
