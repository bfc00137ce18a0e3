import { queryOptions, useQuery } from '@tanstack/react-query';
import { globalSettingsResponseSchema, type GlobalSettings } from '@offzero/shared/api/global-settings';
import { basisPointsFromPercent, usdNumberToCents, type Cents } from '@offzero/shared/money/money';
import {
  byRail,
  hasSettings,
  PAYMENT_RAILS,
  railArrival,
  railIsOn,
  SELL_PAYOUT_RAILS,
  type PaymentRail,
  type SellPayoutRail,
} from '@offzero/shared/rails/rails';
import { apiGet } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/**
 * The trading terms from `GET /api/admin/settings` (fees, limits, the quote lock, which methods are
 * on), turned into integers once. Visitors receive the public part only; signed-in customers also get
 * each method's bank charges.
 */

/** A rail dollars move by: a buy is paid by it, or a sell paid out by it. */
export type PaymentMethodKey = PaymentRail;

export interface TradeSettings {
  feeBps: number;
  /** The fee as the settings state it, for display ('1.5%'). */
  feePercent: number;
  minOrderCents: Cents;
  maxOrderCents: Cents;
  /** How long a confirmed quote is held, in seconds. */
  sessionTimeoutSeconds: number;
  active: Record<PaymentMethodKey, boolean>;
  /** Each payout method's charges (sell); zero when unknown (visitors). */
  bankChargesCents: Record<SellPayoutRail, Cents>;
  /** When each method's money or bitcoin arrives, in the operator's words. */
  arrival: Record<PaymentMethodKey, string>;
  /**
   * Whether a seller may send by Lightning (the `lightning` group's switch, docs/design.md,
   * "Lightning"). Only signed-in customers' terms carry it; visitors never reach that step.
   */
  lightningActive: boolean;
}

function toTradeSettings(settings: GlobalSettings): TradeSettings {
  // A rail without a settings group charges nothing.
  const charges = (method: SellPayoutRail): Cents => {
    if (!hasSettings(method)) return 0n;
    const group = settings[method];
    return 'bank_charges' in group ? usdNumberToCents(group.bank_charges) : 0n;
  };
  return {
    feeBps: basisPointsFromPercent(settings.order.platform_fees),
    feePercent: settings.order.platform_fees,
    minOrderCents: usdNumberToCents(settings.order.min_order_size),
    maxOrderCents: usdNumberToCents(settings.order.max_order_size),
    sessionTimeoutSeconds: settings.order.order_session_timeout,
    active: byRail(PAYMENT_RAILS, (method) => railIsOn(settings, method)),
    bankChargesCents: byRail(SELL_PAYOUT_RAILS, charges),
    arrival: byRail(PAYMENT_RAILS, (method) => railArrival(settings.arrival, method)),
    lightningActive: 'lightning' in settings && settings.lightning.is_active,
  };
}

/** Every viewer's copy of the trading terms starts with this key. */
export const tradeSettingsQueryKey = ['trade', 'global-settings'] as const;

export async function getTradeSettings(signal?: AbortSignal): Promise<TradeSettings> {
  const answer = await apiGet('/admin/settings', { schema: globalSettingsResponseSchema, signal });
  return toTradeSettings(answer.settings);
}

/** The trading terms as one viewer sees them (`viewer`: the customer's id, or 'visitor'). */
export function tradeSettingsQueryOptions(viewer: string) {
  return queryOptions({
    // Per viewer: a visitor's copy lacks the bank charges a customer's has.
    queryKey: [...tradeSettingsQueryKey, viewer],
    queryFn: ({ signal }) => getTradeSettings(signal),
    staleTime: 60_000,
  });
}

export function useTradeSettings() {
  return useQuery(tradeSettingsQueryOptions(useSession()?.userId ?? 'visitor'));
}
