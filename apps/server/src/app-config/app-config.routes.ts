import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAppConfigSchema } from '@offzero/shared/api/app-config';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { publicAppConfig } from './public-app-config';

/** `GET /api/app-config`: what the browser needs to know about this deployment. Nothing secret. */
export const appConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const body = publicAppConfig(app.config, app.providers);
  app.get(
    '/api/app-config',
    { schema: { response: { 200: publicAppConfigSchema, 500: errorBodySchema } } },
    async () => body,
  );
};
