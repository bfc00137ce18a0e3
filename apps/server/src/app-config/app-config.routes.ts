import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAppConfigSchema, type PublicAppConfig } from '@offzero/shared/api/app-config';
import { errorBodySchema } from '@offzero/shared/api/errors';

/** `GET /api/app-config`: what the browser needs to know about this deployment. Nothing secret. */
export const appConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const body: PublicAppConfig = {
    mode: config.mode,
    supportEmail: config.supportEmail,
    blogUrl: config.blogUrl,
    social: {
      x: 'https://x.com/offzero',
      facebook: 'https://www.facebook.com/offzero',
      linkedin: 'https://www.linkedin.com/company/offzero',
    },
    postalAddress: config.postalAddress,
    googleClientId: app.providers.googleSignIn?.clientId ?? null,
    paypalClientId: app.providers.paypal.clientId,
    bitcoinNetwork: config.bitcoinNetwork,
    explorerUrl: config.explorerUrl,
  };
  app.get(
    '/api/app-config',
    { schema: { response: { 200: publicAppConfigSchema, 500: errorBodySchema } } },
    async () => body,
  );
};
