import type { PublicAppConfig } from '@offzero/shared/api/app-config';

/**
 * The settings the server embeds in every page, checked without zod: this runs before the first render
 * of every page, and zod with the shared schemas would otherwise be in every page's first download.
 * It accepts exactly what `publicAppConfigSchema` accepts (read-app-config.test.ts holds them together)
 * and, like it, keeps only the known fields. Null for anything else.
 */
export function readAppConfig(value: unknown): PublicAppConfig | null {
  if (!isRecord(value) || !isRecord(value.social)) return null;
  const { mode, supportEmail, blogUrl, social, postalAddress, googleClientId, paypalClientId } = value;
  const { bitcoinNetwork, explorerUrl } = value;
  if (mode !== 'demo' && mode !== 'production') return null;
  if (bitcoinNetwork !== 'mainnet' && bitcoinNetwork !== 'testnet' && bitcoinNetwork !== 'regtest') {
    return null;
  }
  if (!isText(supportEmail) || !isText(blogUrl) || !isText(postalAddress) || !isText(explorerUrl)) {
    return null;
  }
  if (!isText(social.x) || !isText(social.facebook) || !isText(social.linkedin)) return null;
  if (!isTextOrNull(googleClientId) || !isTextOrNull(paypalClientId)) return null;
  return {
    mode,
    supportEmail,
    blogUrl,
    social: { x: social.x, facebook: social.facebook, linkedin: social.linkedin },
    postalAddress,
    googleClientId,
    paypalClientId,
    bitcoinNetwork,
    explorerUrl,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string';
}

function isTextOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
