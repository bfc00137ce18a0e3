import { z } from 'zod';

/** What the server tells every browser at start-up: `GET /api/app-config`. Nothing secret. */
export const publicAppConfigSchema = z.object({
  mode: z.enum(['demo', 'production']),
  supportEmail: z.string(),
  blogUrl: z.string(),
  social: z.object({ x: z.string(), facebook: z.string(), linkedin: z.string() }),
  postalAddress: z.string(),
  googleClientId: z.string().nullable(),
  /** PayPal's public client id for its buttons; null in demo, where the PayPal sandbox stands in. */
  paypalClientId: z.string().nullable(),
  bitcoinNetwork: z.enum(['mainnet', 'testnet', 'regtest']),
  explorerUrl: z.string(),
});

export type PublicAppConfig = z.infer<typeof publicAppConfigSchema>;
