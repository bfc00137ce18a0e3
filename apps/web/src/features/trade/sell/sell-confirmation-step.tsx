import { useId, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { sellMethodFormSchema } from '@offzero/shared/api/orders';
import { type SellDeposit } from '@offzero/shared/api/order-lightning';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { railLabel } from '@offzero/shared/rails/rails';
import { Button } from '../../../components/ui/button';
import type { HeldSellQuote } from '../api/lock-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import { ArrivalNote, LockedRate, QuoteLock, SpreadLabel, useQuoteExpired } from '../components/locked-quote';
import { DetailList } from '../../../components/ui/detail-list';
import type { TileMethod } from '../components/method-tile';
import { payoutRows } from '../../../components/orders/receiving-details';
import { StepHeading } from '../components/step-heading';
import { firstError, useZodForm } from '../../../lib/forms';
import { formatExactBtc, formatUsdCents } from '../../../lib/format';
import { sellDepositArrival, sellDepositLabel } from './sell-deposit-choice';

/**
 * Sell confirmation (docs/design.md): the server's locked quote — what the customer
 * receives, the rate against the mid-market price, the platform fee, the method's bank charges and the
 * spread — which does not move while its real countdown runs; when it runs out, a way to a new quote.
 * Then when the dollars arrive and the account they go to. Send submits the chosen method, checked by
 * the shared schema the order's payout account is checked with. Render it with `key={quote.id}`.
 */
export function SellConfirmationStep({
  quote,
  blockedReason = null,
  method,
  deposit = 'onchain',
  settings,
  tradeSettings,
  onRenew,
  renewing,
  onBack,
  onSend,
  sending,
  compliance,
}: {
  quote: HeldSellQuote | null;
  /** Why there is no quote for the amount typed (e.g. the method's charges would leave nothing). */
  blockedReason?: string | null;
  method: TileMethod;
  /** How the customer sends the bitcoin. */
  deposit?: SellDeposit;
  settings: UserSettings | null;
  tradeSettings: TradeSettings;
  /** Asks for a new locked quote for the same amount and method (after this one expired). */
  onRenew: () => void;
  renewing: boolean;
  onBack: () => void;
  onSend: (method: TileMethod) => void;
  sending: boolean;
  /** Questions the order must answer before it is saved (the Travel Rule's, from $3,000). */
  compliance?: ReactNode;
}) {
  const reasonId = useId();
  const [expired, setExpired] = useQuoteExpired(quote?.expiresAtMs ?? Number.POSITIVE_INFINITY);
  const form = useZodForm(sellMethodFormSchema, { defaultValues: { method } });
  const submit = form.handleSubmit(
    (values) => onSend(values.method),
    (errors) => {
      const message = firstError(errors, ['method']);
      if (message) toast.error(message);
    },
  );

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!quote || expired || sending) return;
        void submit(event);
      }}
    >
      <StepHeading onBack={sending ? undefined : onBack}>Confirm your sale</StepHeading>
      {!quote && blockedReason ? (
        <p
          id={reasonId}
          role="alert"
          className="rounded-xl bg-amber-50 px-3 py-2.5 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {blockedReason}
        </p>
      ) : (
        <DetailList
          rows={[
            { label: 'You Send', value: quote ? `${formatExactBtc(quote.amountSats)} BTC` : '—' },
            { label: 'Sent By', value: sellDepositLabel(deposit) },
            {
              label: 'Rate',
              value: quote ? (
                <LockedRate priceCents={quote.priceCents} midPriceCents={quote.midPriceCents} />
              ) : (
                '—'
              ),
            },
            { label: 'Platform Fee', value: quote ? formatUsdCents(quote.platformFeeCents) : '—' },
            { label: 'Bank Charges', value: quote ? formatUsdCents(quote.bankFeeCents) : '—' },
            { label: <SpreadLabel />, value: quote ? formatUsdCents(quote.spreadCents) : '—' },
            { label: 'You Receive', value: quote ? formatUsdCents(quote.valueCents) : '—', strong: true },
          ]}
        />
      )}
      {quote && (
        <QuoteLock
          expiresAtMs={quote.expiresAtMs}
          expired={expired}
          onExpire={() => setExpired(true)}
          onRenew={onRenew}
          renewing={renewing}
        />
      )}
      <ArrivalNote>
        Sent by {sellDepositLabel(deposit)}: {sellDepositArrival(deposit)}
      </ArrivalNote>
      <ArrivalNote>
        Paid by {railLabel(method)}: {tradeSettings.arrival[method]}
      </ArrivalNote>
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Paid to you by {railLabel(method)}</p>
        <DetailList rows={payoutRows(method, settings)} />
      </div>
      {compliance}
      {!expired && (
        <Button
          type="submit"
          size="lg"
          fullWidth
          loading={sending}
          disabled={!quote}
          aria-describedby={!quote && blockedReason ? reasonId : undefined}
        >
          {quote ? `Send ${formatExactBtc(quote.amountSats)} BTC` : 'Send BTC'}
        </Button>
      )}
    </form>
  );
}
