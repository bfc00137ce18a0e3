import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KYC_IMAGE_TYPES,
  KYC_MAX_IMAGE_BYTES,
  kycResponseSchema,
  kycTokenResponseSchema,
  localKycFormSchema,
  type LocalKycForm,
} from '@offzero/shared/api/kyc';
import { userIdSchema } from '@offzero/shared/api/user-settings';
import { assertOwnId, requireSignedIn, signedInUser } from '../auth/sessions';
import { AppError, errorBody } from '../http/errors';
import { assertCleanText } from '../http/text-input';
import { toKycResponse } from './kyc.presenter';
import type { KycProvider } from './kyc-provider';
import type { KycDocument, KycService } from './kyc.service';
import { SUMSUB_SIGNATURE_HEADERS } from './sumsub-webhook';
import { errorResponses } from '../http/error-responses';

/** Bad input (400), no session (401), another customer's id or no CSRF token (403), the provider down (503). */
const errors = {
  ...errorResponses(400, 401, 403, 500, 503),
};
const kycAnswer = { 200: kycResponseSchema, ...errors };
const kycUpdateAnswer = { 200: kycResponseSchema.extend({ message: z.string() }), ...errors };

/** The KYC calls of the product specification, the demo verification form, and Sumsub's signed webhook. */
export const kycRoutes =
  (kyc: KycService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.get(
      '/api/kyc/:userId',
      { ...signedIn, schema: { params: z.object({ userId: userIdSchema }), response: kycAnswer } },
      async (request) => {
        const { user } = assertOwnId(request, request.params.userId);
        return toKycResponse(await kyc.find(user.id));
      },
    );

    app.post(
      '/api/kyc/generate/token',
      {
        ...signedIn,
        schema: {
          body: z.strictObject({ user_id: userIdSchema }),
          response: { 200: kycTokenResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.body.user_id);
        return { provider: kyc.providerKind, token: await kyc.accessToken(user.id) };
      },
    );

    app.post(
      '/api/kyc/register',
      { ...signedIn, schema: { body: z.strictObject({ userid: userIdSchema }), response: kycUpdateAnswer } },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userid);
        const record = await kyc.syncFromProvider(user.id);
        return { message: 'Your identity verification was submitted.', ...toKycResponse(record) };
      },
    );

    // `results` is what the widget reported; it is only a hint to re-read the provider's verdict.
    app.post(
      '/api/kyc/status/update',
      {
        ...signedIn,
        schema: {
          body: z.strictObject({ userid: userIdSchema, results: z.unknown().optional() }),
          response: kycUpdateAnswer,
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userid);
        const record = await kyc.syncFromProvider(user.id);
        return { message: 'Your verification status is up to date.', ...toKycResponse(record) };
      },
    );

    await app.register(async (uploads) => {
      await uploads.register(multipart, {
        limits: { fileSize: KYC_MAX_IMAGE_BYTES, files: 1, fields: 10, fieldSize: 1_000, parts: 12 },
      });
      uploads.post(
        '/api/kyc/local/submit',
        {
          ...signedIn,
          bodyLimit: KYC_MAX_IMAGE_BYTES + 64 * 1024,
          // The multipart body is read by the handler; the form is checked with the shared schema.
          schema: {
            consumes: ['multipart/form-data'],
            response: {
              ...kycUpdateAnswer,
              ...errorResponses(404, 409, 413),
            },
          },
        },
        async (request) => {
          if (!request.isMultipart()) {
            throw new AppError('BAD_REQUEST', 'Send the verification form with its document image.');
          }
          const { user } = signedInUser(request);
          const { form, document } = await readLocalSubmission(request);
          const record = await kyc.submitLocal(user.id, form, document);
          return { message: 'Your identity verification is under review.', ...toKycResponse(record) };
        },
      );
    });

    // Only a provider that signs its webhooks (Sumsub) gets a webhook route.
    const { isWebhookAuthentic } = app.providers.kyc;
    if (isWebhookAuthentic) await app.register(sumsubWebhookRoute(kyc, isWebhookAuthentic));
  };

/** Sumsub's signed webhook: checked against the exact bytes, stored in the inbox, answered at once. */
const sumsubWebhookRoute =
  (
    kyc: KycService,
    isWebhookAuthentic: NonNullable<KycProvider['isWebhookAuthentic']>,
  ): FastifyPluginAsyncZod =>
  async (webhooks) => {
    // The signature covers the exact bytes, so this route keeps the raw body.
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const webhookAnswer = {
      200: z.object({ message: z.string() }),
      ...errorResponses(400, 401, 500),
    };
    webhooks.post(
      '/api/kyc/webhook/sumsub',
      { config: { csrf: false }, schema: { response: webhookAnswer } },
      async (request, reply) => {
        const raw = request.body as Buffer;
        if (
          !isWebhookAuthentic(
            raw,
            request.headers['x-payload-digest'],
            request.headers['x-payload-digest-alg'],
          )
        ) {
          request.log.warn('sumsub webhook with a bad signature refused');
          return reply.status(401).send(errorBody('UNAUTHENTICATED', 'Invalid signature.'));
        }
        if (!parseJsonObject(raw))
          return reply.status(400).send(errorBody('BAD_REQUEST', 'The webhook body is not a JSON object.'));
        // Stored with what verifies it, answered at once, applied by the inbox's job.
        const headers: Record<string, string> = {};
        for (const name of SUMSUB_SIGNATURE_HEADERS) {
          const value = request.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const outcome = await kyc.receiveWebhook({ provider: 'sumsub', rawBody: raw, headers });
        return { message: outcome === 'replay' ? 'Already processed.' : 'Received.' };
      },
    );
  };

/** The demo verification form and its document image from a multipart body, checked. */
async function readLocalSubmission(
  request: FastifyRequest,
): Promise<{ form: LocalKycForm; document: KycDocument }> {
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'document')
        throw new AppError('BAD_REQUEST', 'Upload the document image as "document".');
      image = await part.toBuffer();
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  // The form is read here, after the shared text rule's hook: apply that rule to it too.
  assertCleanText(fields);
  const form = localKycFormSchema.safeParse(fields);
  if (!form.success) {
    const first = form.error.issues[0];
    throw new AppError('BAD_REQUEST', first?.message ?? 'Check the verification form.', {
      [String(first?.path[0] ?? 'form')]: first?.message ?? 'is not valid',
    });
  }
  if (!image || image.length === 0) {
    throw new AppError('BAD_REQUEST', 'Upload a photo of your document.', { document: 'required' });
  }
  const mimeType = imageType(image);
  if (!mimeType) {
    throw new AppError('BAD_REQUEST', 'Upload the document as a JPEG, PNG or WebP image.', {
      document: 'unsupported type',
    });
  }
  return { form: form.data, document: { bytes: image, mimeType } };
}

function parseJsonObject(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The image type from its first bytes, not from what the browser claims. */
function imageType(bytes: Buffer): (typeof KYC_IMAGE_TYPES)[number] | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}
