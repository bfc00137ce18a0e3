import { createHmac, timingSafeEqual } from 'node:crypto';
import { placeCodeFrom } from '@offzero/shared/places/places';
import type { KycStatus } from '../db/schema';
import { KycProviderError, type KycProvider, type ProviderKycStatus } from './kyc-provider';

export interface SumsubSettings {
  appToken: string;
  secretKey: string;
  /** Signs the webhooks Sumsub sends us (`x-payload-digest`). */
  webhookSecret: string;
  levelName: string;
  apiUrl: string;
}

/**
 * Sumsub's REST API. Every request is signed: `X-App-Access-Sig` is the hex HMAC-SHA256, keyed with the
 * app secret, of timestamp + method + path (with query) + body; `X-App-Access-Ts` is that timestamp in
 * seconds and `X-App-Token` the app token. Customers are identified by our user id (`externalUserId`).
 */
export function createSumsubKycProvider(
  settings: SumsubSettings,
  now: () => Date = () => new Date(),
): KycProvider {
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: object,
  ): Promise<{ status: number; json: unknown }> {
    const ts = String(Math.floor(now().getTime() / 1000));
    const payload = body ? JSON.stringify(body) : '';
    const signature = createHmac('sha256', settings.secretKey)
      .update(ts + method + path + payload)
      .digest('hex');
    let response: Response;
    try {
      response = await fetch(settings.apiUrl + path, {
        method,
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          'X-App-Token': settings.appToken,
          'X-App-Access-Ts': ts,
          'X-App-Access-Sig': signature,
        },
        ...(body ? { body: payload } : {}),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new KycProviderError(`Sumsub is unreachable: ${(error as Error).message}`);
    }
    const json: unknown = await response.json().catch(() => null);
    return { status: response.status, json };
  }

  return {
    kind: 'sumsub',

    isWebhookAuthentic(rawBody, digest, algorithmHeader) {
      return isSumsubWebhookAuthentic(rawBody, digest, algorithmHeader, settings.webhookSecret);
    },

    async createAccessToken(userId) {
      const { status, json } = await call('POST', '/resources/accessTokens/sdk', {
        userId,
        levelName: settings.levelName,
        ttlInSecs: 600,
      });
      const token = (json as { token?: unknown } | null)?.token;
      if (status !== 200 || typeof token !== 'string') {
        throw new KycProviderError(`Sumsub refused the access token (HTTP ${status})`);
      }
      return token;
    },

    async fetchStatus(userId) {
      const { status, json } = await call(
        'GET',
        `/resources/applicants/-;externalUserId=${encodeURIComponent(userId)}/one`,
      );
      if (status === 404) return null;
      if (status !== 200 || !json || typeof json !== 'object') {
        throw new KycProviderError(`Sumsub answered HTTP ${status} for the applicant`);
      }
      const applicant = json as SumsubApplicant;
      const verdict = fromReview(
        typeof applicant.id === 'string' ? applicant.id : null,
        applicant.review?.reviewStatus,
        applicant.review?.reviewResult?.reviewAnswer,
        applicant.review?.reviewResult?.moderationComment,
      );
      return verdict && { ...verdict, residenceState: residenceStateOf(applicant) };
    },
  };
}

/** The parts of Sumsub's applicant (`GET /resources/applicants/-;externalUserId=…/one`) read here. */
interface SumsubApplicant {
  id?: unknown;
  review?: {
    reviewStatus?: unknown;
    reviewResult?: { reviewAnswer?: unknown; moderationComment?: unknown };
  };
  /** What Sumsub recognised from the documents, and what the applicant or we provided. */
  info?: { addresses?: unknown };
  fixedInfo?: { addresses?: unknown };
}

/**
 * Where the applicant lives: the `state` of the first US address (`country` "USA", Sumsub's ISO
 * alpha-3) among the addresses Sumsub recognised (`info`), else those provided (`fixedInfo`); a USPS
 * code or a place name. Null when none names a US place.
 */
export function residenceStateOf(applicant: SumsubApplicant): string | null {
  for (const addresses of [applicant.info?.addresses, applicant.fixedInfo?.addresses]) {
    if (!Array.isArray(addresses)) continue;
    for (const address of addresses as { country?: unknown; state?: unknown; stateCode?: unknown }[]) {
      if (address?.country !== 'USA') continue;
      const code =
        placeCodeFrom(typeof address.stateCode === 'string' ? address.stateCode : null) ??
        placeCodeFrom(typeof address.state === 'string' ? address.state : null);
      if (code) return code;
    }
  }
  return null;
}

/** Sumsub's review state as our status: completed GREEN/RED are final; anything submitted is YELLOW. */
export function fromReview(
  applicantId: string | null,
  reviewStatus: unknown,
  reviewAnswer: unknown,
  comment?: unknown,
): ProviderKycStatus | null {
  const note = typeof comment === 'string' ? comment.slice(0, 500) : null;
  if (reviewStatus === 'completed' && (reviewAnswer === 'GREEN' || reviewAnswer === 'RED')) {
    return { status: reviewAnswer as KycStatus, applicantId, note };
  }
  if (
    reviewStatus === 'pending' ||
    reviewStatus === 'queued' ||
    reviewStatus === 'onHold' ||
    reviewStatus === 'prechecked'
  ) {
    return { status: 'YELLOW', applicantId, note };
  }
  return null;
}

const DIGEST_ALGORITHMS: Record<string, string> = { HMAC_SHA256_HEX: 'sha256', HMAC_SHA512_HEX: 'sha512' };

/**
 * Checks Sumsub's webhook signature: `x-payload-digest` is the hex HMAC of the raw body with the webhook
 * secret, using the algorithm named in `x-payload-digest-alg` (SHA-256 when absent). Constant-time.
 */
export function isSumsubWebhookAuthentic(
  rawBody: Buffer,
  digest: unknown,
  algorithmHeader: unknown,
  secret: string,
): boolean {
  if (typeof digest !== 'string' || !/^[0-9a-f]+$/i.test(digest)) return false;
  const algorithm =
    DIGEST_ALGORITHMS[typeof algorithmHeader === 'string' ? algorithmHeader : 'HMAC_SHA256_HEX'];
  if (!algorithm) return false;
  const expected = createHmac(algorithm, secret).update(rawBody).digest();
  const given = Buffer.from(digest, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
