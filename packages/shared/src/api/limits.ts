import { z } from 'zod';
import type { Cents } from '../money/money';

/**
 * Trading limits per KYC tier over rolling windows (docs/design.md), and the Travel Rule answer an
 * order of $3,000 or more must carry. Shared so the server's refusals and the web app's screens use
 * the same windows, words and threshold.
 */

export const LIMIT_WINDOWS = ['24h', '7d', '30d'] as const;
export type LimitWindow = (typeof LIMIT_WINDOWS)[number];
export const LIMIT_TIERS = [1, 2] as const;
export type LimitTier = (typeof LIMIT_TIERS)[number];

/** How each window is named to a customer, and what "the rest of it" is called in a sentence. */
export const LIMIT_WINDOW_WORDS: Record<LimitWindow, { label: string; rest: string }> = {
  '24h': { label: '24-hour', rest: 'today' },
  '7d': { label: '7-day', rest: 'this week' },
  '30d': { label: '30-day', rest: 'this month' },
};

/** "This order is over your 24-hour limit. You can trade up to $X more today." */
export function overLimitMessage(window: LimitWindow, remaining: string): string {
  const words = LIMIT_WINDOW_WORDS[window];
  return `This order is over your ${words.label} limit. You can trade up to ${remaining} more ${words.rest}.`;
}

export const limitTierSchema = z.union([z.literal(1), z.literal(2)], {
  error: 'Choose tier 1 or tier 2.',
});

/** `GET /api/limits`: the signed-in customer's tier and each window's limit, use and what is left (USD). */
export const limitsResponseSchema = z.object({
  tier: limitTierSchema,
  windows: z.array(
    z.object({
      window: z.enum(LIMIT_WINDOWS),
      limitUsd: z.number(),
      usedUsd: z.number(),
      remainingUsd: z.number(),
    }),
  ),
});
export type LimitsResponse = z.infer<typeof limitsResponseSchema>;

/** `POST /api/admin/users/:userId/tier`: the tier a customer moves to, and why. */
export const setLimitTierSchema = z.strictObject({
  tier: limitTierSchema,
  reason: z.string().trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(500),
});

// ---------------------------------------------------------------------------------------------------
// Travel Rule

/** Orders of this value or more keep a Travel Rule record and must say whose wallet it is. */
export const TRAVEL_RULE_THRESHOLD_CENTS: Cents = 300_000n;

export const WALLET_OWNERSHIP_MESSAGES = {
  missing: 'Tell us whether this wallet is your own.',
  institution: 'Name the exchange or institution that holds this wallet.',
  institutionTooLong: 'The exchange or institution name can be at most 200 characters.',
} as const;

/** `{ own: true }`, or `{ own: false, institution }` naming who holds the wallet. */
export const walletOwnershipSchema = z.discriminatedUnion(
  'own',
  [
    z.strictObject({ own: z.literal(true) }),
    z.strictObject({
      own: z.literal(false),
      institution: z
        .string({ error: WALLET_OWNERSHIP_MESSAGES.institution })
        .trim()
        .min(1, { error: WALLET_OWNERSHIP_MESSAGES.institution })
        .max(200, { error: WALLET_OWNERSHIP_MESSAGES.institutionTooLong }),
    }),
  ],
  { error: WALLET_OWNERSHIP_MESSAGES.missing },
);
export type WalletOwnership = z.infer<typeof walletOwnershipSchema>;

/** True when an order of this value needs the wallet-ownership answer. */
export function needsTravelRuleRecord(valueCents: Cents): boolean {
  return valueCents >= TRAVEL_RULE_THRESHOLD_CENTS;
}
