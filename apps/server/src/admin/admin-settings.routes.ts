import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { saveSettingsAnswerSchema } from '@offzero/shared/api/admin';
// The settings rules, shared with the back-office editor so both give the same message on the same field.
import { settingsUpdateSchema } from '@offzero/shared/api/admin-settings';
import { requireAdmin, signedInUser } from '../auth/sessions';
import { toFullSettings } from '../settings/global-settings.presenter';
import type { AdminService } from './admin.service';
import { adminErrorResponses } from './admin-error-responses';

/** `PUT /api/admin/settings`: validated, audited, and in force for the next quote. */
export const adminSettingsRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/api/admin/settings',
      {
        onRequest: requireAdmin(app),
        schema: {
          body: settingsUpdateSchema,
          response: { 200: saveSettingsAnswerSchema, ...adminErrorResponses },
        },
      },
      async (request) => {
        const saved = await admin.updateGlobalSettings({
          staff: signedInUser(request),
          settings: request.body,
        });
        return { message: 'Settings saved. New quotes use them now.', settings: toFullSettings(saved, true) };
      },
    );
  };
