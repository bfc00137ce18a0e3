import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findGlobalSettings } from './global-settings.repository';
import { toFullSettings, toPublicSettings } from './global-settings.presenter';

/**
 * `GET /api/admin/settings`, the one public admin path: visitors get limits, fees, switches and
 * referral terms; signed-in customers also get the company's receiving bank details.
 */
export const globalSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/admin/settings', async (request) => {
    const row = await findGlobalSettings(app.database.db);
    const viewer = await app.sessions.optionalUser(request);
    return { settings: viewer ? toFullSettings(row) : toPublicSettings(row) };
  });
};
