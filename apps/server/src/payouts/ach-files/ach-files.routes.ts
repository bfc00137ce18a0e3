import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { achFileQuerySchema, achFileSummarySchema } from '@offzero/shared/api/ach-files';
import { formatUsd } from '@offzero/shared/money/money';
import { requireAdmin, signedInUser } from '../../auth/sessions';
import { errorResponses } from '../../http/error-responses';
import type { AchFileService, AchFileView } from './ach-files.service';

const errors = errorResponses(400, 401, 403, 409, 500);

function toSummary(view: AchFileView) {
  return {
    date: view.day,
    effectiveEntryDate: view.effectiveEntryDate,
    downloaded: view.stored,
    downloadedAt: view.createdAt?.toISOString() ?? null,
    entryCount: view.entryCount,
    total: formatUsd(view.totalCents),
    skipped: view.skipped,
  };
}

/**
 * The back office's ACH file (docs/design.md, "ACH file"): the day's due ACH sell payouts as one NACHA
 * file. Downloading it marks them submitted; the same day's file downloads again as the same bytes.
 */
export const achFileRoutes =
  (files: AchFileService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/payouts/ach-file/summary',
      {
        ...staffOnly,
        schema: { querystring: achFileQuerySchema, response: { 200: achFileSummarySchema, ...errors } },
      },
      async (request) => toSummary(await files.summary(request.query.date)),
    );

    app.get(
      '/api/admin/payouts/ach-file',
      {
        ...staffOnly,
        schema: {
          querystring: achFileQuerySchema,
          response: {
            200: {
              description: 'The NACHA file of the day (94-character records, blocked by ten).',
              content: { 'text/plain': { schema: z.string() } },
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await files.download({ staff: signedInUser(request), day: request.query.date });
        return reply
          .header('content-type', 'text/plain; charset=us-ascii')
          .header('content-disposition', `attachment; filename="offzero-ach-${file.day}.txt"`)
          .header('cache-control', 'no-store')
          .header('x-ach-entry-count', String(file.entryCount))
          .header('x-ach-total', formatUsd(file.totalCents))
          .send(file.contents);
      },
    );
  };
