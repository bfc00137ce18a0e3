import type { KycStatus } from '../db/schema';

/** What the identity provider itself says about a customer. */
export interface ProviderKycStatus {
  status: KycStatus;
  applicantId: string | null;
  note: string | null;
  /** Where the customer lives (a US state, DC or territory code), when the provider knows it. */
  residenceState?: string | null;
}

/** One interface for identity verification: Sumsub in production, the local form in demo. */
export interface KycProvider {
  kind: 'local' | 'sumsub';
  /** A short-lived token for the browser widget, or null when the provider needs none (local form). */
  createAccessToken(userId: string): Promise<string | null>;
  /** The provider's own verdict, or null when the customer has not submitted anything there. */
  fetchStatus(userId: string): Promise<ProviderKycStatus | null>;
  /**
   * Checks the signature of a webhook the provider sent (Sumsub's `x-payload-digest` headers); absent
   * when the provider sends none (the local form), and then no webhook route exists.
   */
  isWebhookAuthentic?: (rawBody: Buffer, digest: unknown, algorithmHeader: unknown) => boolean;
}

export class KycProviderError extends Error {
  override name = 'KycProviderError';
}
