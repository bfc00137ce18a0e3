import { BUY_CHECK_MESSAGES, SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { KycStatusValue } from '@offzero/shared/api/kyc';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import type { Cents } from '@offzero/shared/money/money';
import { SELL_PAYOUT_RAILS, SELL_PAYOUTS, type SellPayoutRail } from '@offzero/shared/rails/rails';
import { payoutDetail } from '../../../components/orders/receiving-details';
import { formatUsdCents } from '../../../lib/format';

/**
 * The checks a customer's quote passes before the next step, in the spec's order and
 * with its exact messages. The server runs the same checks again; these only save a round trip.
 */

export interface TradeAccount {
  user: { email_verified: boolean; phone_verified: boolean };
  kyc: { status: KycStatusValue; reason?: string } | null;
  settings: Pick<UserSettings, 'bankAccount'> | null;
}

export type TradeSide = 'buy' | 'sell';

/** The first failed check's message, or null when the customer may go on. */
export function tradeCheckFailure(
  side: TradeSide,
  account: TradeAccount,
  valueCents: Cents,
  maxOrderCents: Cents,
): string | null {
  if (!account.user.email_verified) return BUY_CHECK_MESSAGES.emailNotVerified;
  if (!account.user.phone_verified) return BUY_CHECK_MESSAGES.phoneNotVerified;
  if (side === 'sell' && !account.settings?.bankAccount?.account_number)
    return BUY_CHECK_MESSAGES.noBankAccount;
  if (!account.kyc) return BUY_CHECK_MESSAGES.noKyc;
  if (account.kyc.status === 'RED') return BUY_CHECK_MESSAGES.kycRejected(account.kyc.reason);
  if (account.kyc.status !== 'GREEN') return BUY_CHECK_MESSAGES.kycNotApproved;
  if (valueCents > maxOrderCents) return maximumOrderMessage(maxOrderCents);
  return null;
}

/** The spec's wording for an order above the maximum size. */
export function maximumOrderMessage(maxOrderCents: Cents): string {
  return BUY_CHECK_MESSAGES.maximum(formatUsdCents(maxOrderCents));
}

/** The server's own wording for an order below the minimum size. */
export function minimumOrderMessage(minOrderCents: Cents): string {
  return `Minimum order is ${formatUsdCents(minOrderCents)}`;
}

export type SellMethod = SellPayoutRail;

/** Whether the customer's settings hold what the chosen payout method needs; the message if not. */
export function sellMethodFailure(method: string, settings: UserSettings | null | undefined): string | null {
  if (!settings) return SELL_METHOD_MESSAGES.noSettings;
  if (!(SELL_PAYOUT_RAILS as readonly string[]).includes(method)) return SELL_METHOD_MESSAGES.invalidMethod;
  // The detail the rail cannot pay without, as its registry entry names it.
  const payout = SELL_PAYOUTS[method as SellPayoutRail];
  return payoutDetail(settings, payout.requires) ? null : payout.missingDetailsMessage;
}
