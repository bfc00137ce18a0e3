import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { inboxStatusSchema, outboxStatusSchema } from '@offzero/shared/api/admin';
import { requireAdmin } from '../auth/sessions';
import type { AdminService } from './admin.service';
import { adminErrorResponses } from './admin-error-responses';

/**
 * `GET /api/admin/outbox`: notices waiting to be delivered (`pending`) and those parked after their
 * last try; `GET /api/admin/inbox`: provider webhooks waiting to be applied and those parked.
 */
export const adminOutboxRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/outbox',
      {
        onRequest: requireAdmin(app),
        schema: { response: { 200: outboxStatusSchema, ...adminErrorResponses } },
      },
      async () => admin.getOutboxStatus(),
    );
    app.get(
      '/api/admin/inbox',
      {
        onRequest: requireAdmin(app),
        schema: { response: { 200: inboxStatusSchema, ...adminErrorResponses } },
      },
      async () => admin.getInboxStatus(),
    );
  };
