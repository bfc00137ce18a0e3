import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import type { AppConfig } from '../config/config';
import type { Providers } from '../providers/provider-registry';

/** What every browser is told about this deployment (`GET /api/app-config`, and inside each page). */
export function publicAppConfig(config: AppConfig, providers: Providers): PublicAppConfig {
  return {
    mode: config.mode,
    supportEmail: config.supportEmail,
    blogUrl: config.blogUrl,
    social: {
      x: 'https://x.com/offzero',
      facebook: 'https://www.facebook.com/offzero',
      linkedin: 'https://www.linkedin.com/company/offzero',
    },
    postalAddress: config.postalAddress,
    googleClientId: providers.googleSignIn?.clientId ?? null,
    paypalClientId: providers.paypal.clientId,
    bitcoinNetwork: config.bitcoinNetwork,
    explorerUrl: config.explorerUrl,
  };
}
