import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditListSchema,
  auditTargetTypes,
  customerDetailSchema,
  customerListSchema,
  kycCaseAnswerSchema,
  kycCasesSchema,
  kycDecisionAnswerSchema,
  messageAnswerSchema,
} from '@offzero/shared/api/admin';
import { KYC_IMAGE_TYPES } from '@offzero/shared/api/kyc';
import { setLimitTierSchema } from '@offzero/shared/api/limits';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { requireAdmin, signedInUser } from '../auth/sessions';
import { toOrderResponse } from '../orders/order.presenter';
import type { AdminService } from './admin.service';
import {
  adminActionErrorResponses,
  adminErrorResponses,
  adminLookupErrorResponses,
} from './admin-error-responses';
import {
  toAuditEntry,
  toCustomerDetailUser,
  toCustomerListItem,
  toKycCase,
  toReferralRewardEntry,
} from './admin.presenter';

const userParams = z.object({ userId: z.string().max(100) });

/** The document image, in the type its first bytes showed when it was uploaded. */
const documentImage = {
  description: 'The document image the customer uploaded.',
  content: Object.fromEntries(
    KYC_IMAGE_TYPES.map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }]),
  ),
};

/** KYC review, customers (search, detail, disable, lift a restriction) and the audit log. */
export const adminPeopleRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app, options) => {
    await kycReviewRoutes(admin)(app, options);
    await customerRoutes(admin)(app, options);
  };

/** The KYC cases: the list, one case, its document image, and the decision. */
const kycReviewRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/kyc',
      {
        ...staffOnly,
        schema: {
          querystring: z.strictObject({ status: z.enum(['GREEN', 'YELLOW', 'RED']).default('YELLOW') }),
          response: { 200: kycCasesSchema, ...adminErrorResponses },
        },
      },
      async (request) => {
        const cases = await admin.listKycCases(request.query.status);
        return { cases: cases.map((row) => toKycCase(row.record, row.email)) };
      },
    );

    app.get(
      '/api/admin/kyc/:userId',
      {
        ...staffOnly,
        schema: { params: userParams, response: { 200: kycCaseAnswerSchema, ...adminLookupErrorResponses } },
      },
      async (request) => {
        const { record, email } = await admin.getKycCase(request.params.userId);
        return { case: toKycCase(record, email) };
      },
    );

    app.get(
      '/api/admin/kyc/:userId/document',
      {
        ...staffOnly,
        schema: { params: userParams, response: { 200: documentImage, ...adminLookupErrorResponses } },
      },
      async (request, reply) => {
        const document = await admin.getKycDocument(request.params.userId);
        return (
          reply
            .header('content-type', document.mimeType)
            .header('cache-control', 'private, no-store')
            .header('content-security-policy', "default-src 'none'")
            // Fastify sends a Buffer as it is; the zod type provider can only call it a (binary) string.
            .send(document.bytes as unknown as string)
        );
      },
    );

    app.post(
      '/api/admin/kyc/:userId',
      {
        ...staffOnly,
        config: { multilineFields: ['reason'] },
        schema: {
          params: userParams,
          body: z.strictObject({
            status: z.enum(['GREEN', 'RED']),
            reason: z.string().trim().max(500).optional(),
          }),
          response: { 200: kycDecisionAnswerSchema, ...adminActionErrorResponses },
        },
      },
      async (request) => {
        const { status, reason } = request.body;
        const decided = await admin.decideKycCase({
          staff: signedInUser(request),
          userId: request.params.userId,
          status,
          reason: reason ?? null,
        });
        return {
          message: status === 'GREEN' ? 'Identity approved.' : 'Identity rejected.',
          case: toKycCase(decided, null),
        };
      },
    );
  };

/** Customers (search, detail, access, limit tier) and the audit log. */
const customerRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/users',
      {
        ...staffOnly,
        schema: {
          querystring: z.strictObject({
            q: z.string().trim().max(254).default(''),
            limit: z.coerce.number().int().min(1).max(200).default(50),
          }),
          response: { 200: customerListSchema, ...adminErrorResponses },
        },
      },
      async (request) => {
        const found = await admin.searchCustomers({ term: request.query.q, limit: request.query.limit });
        return { users: found.map(({ user, isAdmin }) => toCustomerListItem(user, isAdmin)) };
      },
    );

    app.get(
      '/api/admin/users/:userId',
      {
        ...staffOnly,
        schema: { params: userParams, response: { 200: customerDetailSchema, ...adminLookupErrorResponses } },
      },
      async (request) => {
        const detail = await admin.getCustomerDetail(request.params.userId);
        return {
          user: toCustomerDetailUser(detail.user, detail.isAdmin),
          settings: detail.settings,
          kyc: detail.kyc ? toKycCase(detail.kyc, detail.user.email) : null,
          orders: detail.orders.map((order) => toOrderResponse(order)),
          referralRewards: detail.referralRewards.map(toReferralRewardEntry),
          referralTotal: centsToUsdNumber(detail.referralTotalCents),
        };
      },
    );

    const accessAnswer = {
      disable: 'Account disabled; its sessions have ended.',
      enable: 'Account enabled.',
      restrict: 'Trading restricted; the customer can sign in and read, not trade.',
      'lift-restriction': 'Restriction lifted; the customer can trade again.',
    } as const;
    // Disable, re-enable, restrict trading (a staff decision), and lift a trading restriction.
    for (const change of ['disable', 'enable', 'restrict', 'lift-restriction'] as const) {
      app.post(
        `/api/admin/users/:userId/${change}`,
        {
          ...staffOnly,
          config: { multilineFields: ['reason'] },
          schema: {
            params: userParams,
            body: z.strictObject({
              reason: z.string().trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(500),
            }),
            response: { 200: messageAnswerSchema, ...adminActionErrorResponses },
          },
        },
        async (request) => {
          await admin.setCustomerAccess({
            staff: signedInUser(request),
            userId: request.params.userId,
            change,
            reason: request.body.reason,
          });
          return { message: accessAnswer[change] };
        },
      );
    }

    // Moves a customer between the KYC tiers of the trading limits (docs/design.md).
    app.post(
      '/api/admin/users/:userId/tier',
      {
        ...staffOnly,
        config: { multilineFields: ['reason'] },
        schema: {
          params: userParams,
          body: setLimitTierSchema,
          response: { 200: messageAnswerSchema, ...adminActionErrorResponses },
        },
      },
      async (request) => {
        const { tier, reason } = request.body;
        await admin.setCustomerTier({
          staff: signedInUser(request),
          userId: request.params.userId,
          tier,
          reason,
        });
        return { message: `Customer moved to tier ${tier}. Their new limits apply from the next order.` };
      },
    );

    app.get(
      '/api/admin/audit',
      {
        ...staffOnly,
        schema: {
          querystring: z.strictObject({
            action: z.string().trim().max(60).optional(),
            targetType: z.enum(auditTargetTypes).optional(),
            targetId: z.string().trim().max(100).optional(),
            admin: z.string().trim().max(254).optional(),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: { 200: auditListSchema, ...adminErrorResponses },
        },
      },
      async (request) => {
        const entries = await admin.listAuditEntries(request.query);
        return { entries: entries.map(toAuditEntry) };
      },
    );
  };
