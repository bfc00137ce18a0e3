import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileUpdateSchema, userSchema } from '@offzero/shared/api/accounts';
import { errorBodySchema } from '@offzero/shared/api/errors';
import type { AccountsService } from '../auth/accounts.service';
import { assertOwnId, requireSignedIn, signedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import { toUserResponse } from './user.presenter';

/** Bad input (400), no session (401), another customer's id or no CSRF token (403). */
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 500: errorBodySchema };

/** `GET /api/user/:id` (own id only) and `POST /api/user/profile` (first and last name only). */
export const userRoutes =
  (accounts: AccountsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/:id',
      {
        schema: {
          params: z.object({ id: z.string().max(100) }),
          response: { 200: z.object({ user: userSchema }), ...errors },
        },
        preHandler: requireSignedIn(app),
      },
      async (request) => {
        const { user, isAdmin } = assertOwnId(request, request.params.id);
        return { user: toUserResponse(user, isAdmin) };
      },
    );

    app.post(
      '/api/user/profile',
      {
        schema: {
          body: profileUpdateSchema,
          response: { 200: z.object({ message: z.string(), user: userSchema }), ...errors },
        },
        preHandler: requireSignedIn(app),
      },
      async (request) => {
        const { user, isAdmin } = signedInUser(request);
        const { firstName, lastName, email } = request.body;
        if (email !== undefined && email.trim().toLowerCase() !== user.email) {
          throw new AppError(
            'BAD_REQUEST',
            'Your email cannot be changed here. Contact support to change it.',
          );
        }
        const updated = await accounts.updateName(user.id, firstName, lastName);
        return { message: 'Profile updated.', user: toUserResponse(updated, isAdmin) };
      },
    );
  };
