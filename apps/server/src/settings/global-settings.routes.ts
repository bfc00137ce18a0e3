import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { globalSettingsResponseSchema } from '@offzero/shared/api/global-settings';
import { toFullSettings, toPublicSettings } from './global-settings.presenter';
import type { GlobalSettingsService } from './global-settings.service';

/**
 * `GET /api/admin/settings`, the one public admin path: visitors get limits, fees, switches and
 * referral terms; signed-in customers also get the company's receiving bank details.
 */
export const globalSettingsRoutes =
  (settings: GlobalSettingsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/settings',
      // The full shape is tried first: a signed-in viewer's bank details must not be stripped.
      {
        schema: { response: { 200: globalSettingsResponseSchema, 500: errorBodySchema } },
        config: { session: 'optional' },
      },
      async (request) => {
        const row = await settings.current();
        const viewer = await app.sessions.optionalUser(request);
        return { settings: viewer ? toFullSettings(row, viewer.isAdmin) : toPublicSettings(row) };
      },
    );
  };
