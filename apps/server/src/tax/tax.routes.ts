import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  saveW9ResponseSchema,
  saveW9Schema,
  taxExportQuerySchema,
  taxYearQuerySchema,
  w9ResponseSchema,
} from '@offzero/shared/api/tax';
import { assertOwnId, requireAdmin, requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import type { FileDownload, TaxService } from './tax.service';

const file = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: { schema: z.string() } },
});

function sendFile(reply: FastifyReply, download: FileDownload) {
  return reply
    .header('content-type', download.contentType)
    .header('content-disposition', `attachment; filename="${download.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(download.body);
}

/**
 * Tax identity (Form W-9) and tax documents (docs/design.md). Files are streamed: a year of
 * ten thousand orders is written a page at a time.
 */
export const taxRoutes =
  (tax: TaxService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.get(
      '/api/tax/w9',
      {
        ...signedIn,
        schema: {
          // The client may name the account; it must be the signed-in customer's own (403 otherwise).
          querystring: z.strictObject({ userId: z.string().max(100).optional() }),
          response: { 200: w9ResponseSchema, ...errorResponses(400, 401, 403, 500) },
        },
      },
      async (request) => {
        const { user } =
          request.query.userId === undefined
            ? signedInUser(request)
            : assertOwnId(request, request.query.userId);
        return { w9: await tax.getW9(user.id) };
      },
    );

    app.post(
      '/api/tax/w9',
      {
        ...signedIn,
        // Not `idempotent`: that store keeps a hash of the body, and a hash of a nine-digit number can be
        // reversed by trying them all. Filing the same W-9 twice changes nothing anyway.
        schema: {
          body: saveW9Schema,
          response: { 200: saveW9ResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 500) },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const w9 = await tax.saveW9(user, request.body);
        return { message: 'Your tax details are saved.', w9 };
      },
    );

    app.get(
      '/api/tax/export',
      {
        ...signedIn,
        schema: {
          querystring: taxExportQuerySchema,
          response: {
            200: file("The year's completed orders as CSV.", 'text/csv'),
            ...errorResponses(400, 401, 500),
          },
        },
      },
      async (request, reply) => {
        const { user } = signedInUser(request);
        return sendFile(reply, tax.exportCsv(user, request.query.year, request.query.format));
      },
    );

    app.get(
      '/api/tax/statement',
      {
        ...signedIn,
        schema: {
          querystring: taxYearQuerySchema,
          response: {
            200: file("The year's statement as PDF.", 'application/pdf'),
            ...errorResponses(400, 401, 500),
          },
        },
      },
      async (request, reply) => {
        const { user } = signedInUser(request);
        return sendFile(reply, await tax.statement(user, request.query.year));
      },
    );

    app.get(
      '/api/order/:id/receipt',
      {
        ...signedIn,
        schema: {
          params: z.object({ id: z.string().max(100) }),
          response: {
            200: file("The order's receipt as PDF.", 'application/pdf'),
            ...errorResponses(401, 404, 500),
          },
        },
      },
      async (request, reply) => {
        const { user } = signedInUser(request);
        return sendFile(reply, await tax.receipt(user, request.params.id));
      },
    );

    app.get(
      '/api/admin/tax/1099-da',
      {
        onRequest: requireAdmin(app),
        schema: {
          querystring: taxYearQuerySchema,
          response: {
            200: file('One row per completed sell of the year, sellers without a W-9 first.', 'text/csv'),
            ...errorResponses(400, 401, 403, 500),
          },
        },
      },
      async (request, reply) => {
        return sendFile(reply, await tax.form1099Da(signedInUser(request), request.query.year));
      },
    );
  };
