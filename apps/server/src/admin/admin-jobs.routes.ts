import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failedJobsSchema } from '@offzero/shared/api/admin';
import { requireAdmin } from '../auth/sessions';
import type { AdminService } from './admin.service';
import { adminErrorResponses } from './admin-error-responses';

/** `GET /api/admin/jobs/failed`: background jobs parked after their last try, with their errors. */
export const adminJobRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/jobs/failed',
      {
        onRequest: requireAdmin(app),
        schema: { response: { 200: failedJobsSchema, ...adminErrorResponses } },
      },
      async () => {
        const jobs = await admin.listFailedJobs();
        return {
          jobs: jobs.map((job) => ({
            id: job.id,
            name: job.name,
            error: job.error,
            failedAt: job.failedAt.toISOString(),
            attempts: job.attempts,
          })),
        };
      },
    );
  };
