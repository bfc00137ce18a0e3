import { and, asc, desc, eq, ilike, or, sum, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { adminActions, kycRecords, orders, referralRewards, users, type KycRecordRow } from '../db/schema';
import { isUuid, requireAdmin, signedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import type { KycService } from '../kyc/kyc.service';
import type { UserSettingsService } from '../settings/user-settings.service';
import type { EventBus } from '../realtime/event-bus';
import { toOrderResponse } from '../orders/order.presenter';
import { toUserResponse } from '../users/user.presenter';
import { recordAdminAction } from './admin-audit';

function kycForAdmin(record: KycRecordRow, email: string | null) {
  return {
    userId: record.userId,
    email,
    provider: record.provider,
    status: record.status,
    legalName: record.legalName,
    dateOfBirth: record.dateOfBirth,
    country: record.country,
    documentType: record.documentType,
    documentNumber: record.documentNumber,
    hasDocument: record.documentImage !== null,
    reviewNote: record.reviewNote,
    decidedBy: record.decidedBy,
    decidedAt: record.decidedAt?.toISOString() ?? null,
    submittedAt: record.submittedAt?.toISOString() ?? null,
  };
}

/** KYC review, customers (search, detail, disable) and the audit log. */
export const adminPeopleRoutes =
  (deps: { kyc: KycService; userSettings: UserSettingsService; bus: EventBus }): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = app.database;
    const admin = { onRequest: requireAdmin(app) };
    const userParams = z.object({ userId: z.string().max(100) });

    async function findKyc(userId: string): Promise<{ record: KycRecordRow; email: string }> {
      const [row] = isUuid(userId)
        ? await db
            .select({ record: kycRecords, email: users.email })
            .from(kycRecords)
            .innerJoin(users, eq(users.id, kycRecords.userId))
            .where(eq(kycRecords.userId, userId))
        : [];
      if (!row) throw new AppError('NOT_FOUND', 'No identity verification for this customer.');
      return row;
    }

    app.get(
      '/api/admin/kyc',
      {
        ...admin,
        schema: {
          querystring: z.strictObject({ status: z.enum(['GREEN', 'YELLOW', 'RED']).default('YELLOW') }),
        },
      },
      async (request) => {
        const rows = await db
          .select({ record: kycRecords, email: users.email })
          .from(kycRecords)
          .innerJoin(users, eq(users.id, kycRecords.userId))
          .where(eq(kycRecords.status, request.query.status))
          .orderBy(asc(kycRecords.submittedAt))
          .limit(200);
        return { cases: rows.map((row) => kycForAdmin(row.record, row.email)) };
      },
    );

    app.get('/api/admin/kyc/:userId', { ...admin, schema: { params: userParams } }, async (request) => {
      const { record, email } = await findKyc(request.params.userId);
      return { case: kycForAdmin(record, email) };
    });

    app.get(
      '/api/admin/kyc/:userId/document',
      { ...admin, schema: { params: userParams } },
      async (request, reply) => {
        const { record } = await findKyc(request.params.userId);
        if (!record.documentImage || !record.documentMimeType)
          throw new AppError('NOT_FOUND', 'No document image for this case.');
        return reply
          .header('content-type', record.documentMimeType)
          .header('cache-control', 'private, no-store')
          .header('content-security-policy', "default-src 'none'")
          .send(Buffer.from(record.documentImage));
      },
    );

    app.post(
      '/api/admin/kyc/:userId',
      {
        ...admin,
        schema: {
          params: userParams,
          body: z.strictObject({
            status: z.enum(['GREEN', 'RED']),
            reason: z.string().trim().max(500).optional(),
          }),
        },
      },
      async (request) => {
        const staff = signedInUser(request);
        const { record } = await findKyc(request.params.userId);
        const { status, reason } = request.body;
        if (status === 'RED' && (!reason || reason.length < 3)) {
          throw new AppError('BAD_REQUEST', 'Give the customer a reason for the rejection.');
        }
        if (record.status !== 'YELLOW') {
          throw new AppError('CONFLICT', `This case was already decided (${record.status}).`);
        }
        const decided = await deps.kyc.decide(record.userId, status, staff.user.email, reason ?? null);
        await recordAdminAction(db, staff, {
          action: status === 'GREEN' ? 'kyc.approve' : 'kyc.reject',
          targetType: 'kyc',
          targetId: record.userId,
          before: { status: record.status },
          after: { status: decided.status, reviewNote: decided.reviewNote },
          note: reason ?? null,
        });
        await deps.bus.publish(record.userId, { type: 'kyc-updated', payload: { status: decided.status } });
        return {
          message: status === 'GREEN' ? 'Identity approved.' : 'Identity rejected.',
          case: kycForAdmin(decided, null),
        };
      },
    );

    app.get(
      '/api/admin/users',
      {
        ...admin,
        schema: {
          querystring: z.strictObject({
            q: z.string().trim().max(254).default(''),
            limit: z.coerce.number().int().min(1).max(200).default(50),
          }),
        },
      },
      async (request) => {
        const term = request.query.q;
        let where: SQL | undefined;
        if (term) {
          const like = `%${term.replace(/[%_\\]/g, '\\$&')}%`;
          where = or(
            ilike(users.email, like),
            ilike(users.phoneNumber, like),
            isUuid(term) ? eq(users.id, term) : undefined,
          );
        }
        const rows = await db
          .select()
          .from(users)
          .where(where)
          .orderBy(desc(users.createdAt))
          .limit(request.query.limit);
        return {
          users: rows.map((user) => ({
            ...toUserResponse(user, app.config.adminEmails.includes(user.email)),
            disabled: user.disabledAt !== null,
            createdAt: user.createdAt.toISOString(),
          })),
        };
      },
    );

    app.get('/api/admin/users/:userId', { ...admin, schema: { params: userParams } }, async (request) => {
      const [user] = isUuid(request.params.userId)
        ? await db.select().from(users).where(eq(users.id, request.params.userId))
        : [];
      if (!user) throw new AppError('NOT_FOUND', 'Customer not found.');
      const [kyc] = await db.select().from(kycRecords).where(eq(kycRecords.userId, user.id));
      const customerOrders = await db
        .select()
        .from(orders)
        .where(eq(orders.userId, user.id))
        .orderBy(desc(orders.createdAt))
        .limit(200);
      const rewards = await db
        .select()
        .from(referralRewards)
        .where(eq(referralRewards.referrerUserId, user.id))
        .orderBy(desc(referralRewards.createdAt));
      const [total] = await db
        .select({ sum: sum(referralRewards.rewardCents) })
        .from(referralRewards)
        .where(eq(referralRewards.referrerUserId, user.id));
      return {
        user: {
          ...toUserResponse(user, app.config.adminEmails.includes(user.email)),
          disabled: user.disabledAt !== null,
          disabledAt: user.disabledAt?.toISOString() ?? null,
          referralCode: user.referralCode,
          referredBy: user.referredByUserId,
          createdAt: user.createdAt.toISOString(),
        },
        settings: await deps.userSettings.get(user.id),
        kyc: kyc ? kycForAdmin(kyc, user.email) : null,
        orders: customerOrders.map(toOrderResponse),
        referralRewards: rewards.map((reward) => ({
          _id: reward.id,
          tradingUserId: reward.tradingUserId,
          orderId: reward.orderId,
          platformFee: centsToUsdNumber(reward.platformFeeCents),
          reward: centsToUsdNumber(reward.rewardCents),
          createdAt: reward.createdAt.toISOString(),
        })),
        referralTotal: centsToUsdNumber(BigInt(total?.sum ?? '0')),
      };
    });

    for (const action of ['disable', 'enable'] as const) {
      app.post(
        `/api/admin/users/:userId/${action}`,
        {
          ...admin,
          schema: {
            params: userParams,
            body: z.strictObject({
              reason: z.string().trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(500),
            }),
          },
        },
        async (request) => {
          const staff = signedInUser(request);
          const [user] = isUuid(request.params.userId)
            ? await db.select().from(users).where(eq(users.id, request.params.userId))
            : [];
          if (!user) throw new AppError('NOT_FOUND', 'Customer not found.');
          if (user.id === staff.user.id)
            throw new AppError('CONFLICT', 'You cannot disable your own account.');
          if ((action === 'disable') === (user.disabledAt !== null)) {
            throw new AppError(
              'CONFLICT',
              `This account is already ${action === 'disable' ? 'disabled' : 'enabled'}.`,
            );
          }
          const disabledAt = action === 'disable' ? new Date() : null;
          await db.transaction(async (tx) => {
            await tx.update(users).set({ disabledAt, updatedAt: new Date() }).where(eq(users.id, user.id));
            await recordAdminAction(tx, staff, {
              action: `user.${action}`,
              targetType: 'user',
              targetId: user.id,
              before: { disabledAt: user.disabledAt },
              after: { disabledAt },
              note: request.body.reason,
            });
          });
          // A disabled account's sessions end at once.
          if (action === 'disable') await app.sessions.revokeAllFor(user.id);
          return {
            message: action === 'disable' ? 'Account disabled; its sessions have ended.' : 'Account enabled.',
          };
        },
      );
    }

    app.get(
      '/api/admin/audit',
      {
        ...admin,
        schema: {
          querystring: z.strictObject({
            action: z.string().trim().max(60).optional(),
            targetType: z.enum(['order', 'user', 'kyc', 'settings']).optional(),
            targetId: z.string().trim().max(100).optional(),
            admin: z.string().trim().max(254).optional(),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
        },
      },
      async (request) => {
        const { action, targetType, targetId, admin: adminEmail, limit } = request.query;
        const conditions: SQL[] = [];
        if (action) conditions.push(ilike(adminActions.action, `${action.replace(/[%_\\]/g, '\\$&')}%`));
        if (targetType) conditions.push(eq(adminActions.targetType, targetType));
        if (targetId) conditions.push(eq(adminActions.targetId, targetId));
        if (adminEmail)
          conditions.push(ilike(adminActions.adminEmail, `%${adminEmail.replace(/[%_\\]/g, '\\$&')}%`));
        const rows = await db
          .select()
          .from(adminActions)
          .where(conditions.length ? and(...conditions) : undefined)
          .orderBy(desc(adminActions.createdAt))
          .limit(limit);
        return {
          entries: rows.map((row) => ({
            _id: row.id,
            at: row.createdAt.toISOString(),
            admin: row.adminEmail,
            action: row.action,
            targetType: row.targetType,
            targetId: row.targetId,
            before: row.before,
            after: row.after,
            note: row.note,
          })),
        };
      },
    );
  };
