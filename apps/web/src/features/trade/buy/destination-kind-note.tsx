import type { PayoutDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import { PAYOUT_DESTINATION_LABELS } from '@offzero/shared/bitcoin/payout-destination';
import type { Sats } from '@offzero/shared/money/money';
import { Badge } from '../../../components/ui/badge';
import { formatBuyBtc } from '../../../lib/format';

/**
 * Which kind of destination the customer typed, before they pay (docs/design.md, "Lightning"): a
 * bitcoin address, a Lightning invoice or a Lightning address; for Lightning, the routing-fee budget
 * of the payout (the operator's cost) or why Lightning cannot pay this buy.
 */
export function DestinationKindNote({
  kind,
  amountSats,
  feeBudgetSats,
}: {
  kind: PayoutDestinationKind;
  amountSats: Sats;
  /** From the locked quote; absent when Lightning cannot pay this buy out. */
  feeBudgetSats: Sats | undefined;
}) {
  const lightning = kind !== 'bitcoin-address';
  return (
    <div
      className="space-y-1.5 rounded-xl bg-slate-50 px-3 py-2.5 text-sm ring-1 ring-slate-200"
      data-testid="destination-kind"
      aria-live="polite"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-slate-600">You entered a</span>
        <Badge>{PAYOUT_DESTINATION_LABELS[kind]}</Badge>
      </p>
      {lightning && feeBudgetSats !== undefined && (
        <p className="text-xs leading-5 text-slate-600" data-testid="routing-fee-budget">
          Sent by Lightning the moment your payment arrives. Routing fee budget: up to{' '}
          <span className="font-semibold text-ink-900">{feeBudgetSats.toLocaleString('en-US')} sats</span>,
          paid by OffZero: you receive {formatBuyBtc(amountSats)} BTC in full.
        </p>
      )}
      {lightning && feeBudgetSats === undefined && (
        <p className="text-xs leading-5 text-amber-800">
          Lightning cannot pay out this buy right now. Enter a bitcoin address instead.
        </p>
      )}
      {kind === 'invoice' && (
        <p className="text-xs leading-5 text-slate-600">
          An invoice is paid once and expires: make it for {formatBuyBtc(amountSats)} BTC, or without an
          amount.
        </p>
      )}
    </div>
  );
}
