import { useId } from 'react';
import toast from 'react-hot-toast';
import { sellMethodFormSchema } from '@offzero/shared/api/orders';
import type { SellQuote } from '@offzero/shared/quotes/quote';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { Button } from '../../../components/ui/button';
import { CountdownNote } from '../components/countdown-note';
import { DetailList } from '../../../components/ui/detail-list';
import { METHOD_LABEL } from '../../../components/ui/payment-methods';
import type { TileMethod } from '../components/method-tile';
import { payoutRows } from '../../../components/orders/receiving-details';
import { StepHeading } from '../components/step-heading';
import { firstError, useZodForm } from '../../../lib/forms';
import { formatExactBtc, formatUsdCents } from '../../../lib/format';

/**
 * Sell confirmation (spec section 2): what the customer receives, the rate, the platform fee and the
 * method's bank charges, how long the quote holds, and the account the dollars go to. Send submits
 * the chosen method, checked by the shared schema the order's payout account is checked with.
 */
export function SellConfirmationStep({
  quote,
  blockedReason = null,
  method,
  settings,
  secondsToRefresh,
  deadlineMs,
  onExpire,
  onBack,
  onSend,
  sending,
}: {
  quote: SellQuote | null;
  /** Why there is no quote for the amount typed (e.g. the method's charges would leave nothing). */
  blockedReason?: string | null;
  method: TileMethod;
  settings: UserSettings | null;
  secondsToRefresh: number;
  deadlineMs: number;
  onExpire: () => void;
  onBack: () => void;
  onSend: (method: TileMethod) => void;
  sending: boolean;
}) {
  const reasonId = useId();
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
        if (!quote || sending) return;
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
            {
              label: 'Rate',
              value: quote ? (
                <>
                  1 BTC = {formatUsdCents(quote.priceCents)}
                  <span className="block text-xs font-normal text-slate-500">
                    refresh in {secondsToRefresh}s
                  </span>
                </>
              ) : (
                '—'
              ),
            },
            { label: 'Platform Fee', value: quote ? formatUsdCents(quote.platformFeeCents) : '—' },
            { label: 'Bank Charges', value: quote ? formatUsdCents(quote.bankFeeCents) : '—' },
            { label: 'You Receive', value: quote ? formatUsdCents(quote.valueCents) : '—', strong: true },
          ]}
        />
      )}
      <CountdownNote
        deadlineMs={deadlineMs}
        onExpire={onExpire}
        label={(time) => `Quote valid for ${time}`}
      />
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Paid to you by {METHOD_LABEL[method]}</p>
        <DetailList rows={payoutRows(method, settings)} />
      </div>
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
    </form>
  );
}
