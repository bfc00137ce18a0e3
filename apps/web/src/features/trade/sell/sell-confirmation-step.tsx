import type { SellQuote } from '@offzero/shared/quotes/quote';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { Button } from '../../../components/ui/button';
import { CountdownNote } from '../components/countdown-note';
import { DetailList } from '../components/detail-list';
import { METHOD_LABEL, type TileMethod } from '../components/method-tile';
import { payoutRows } from '../components/receiving-details';
import { StepHeading } from '../components/step-heading';
import { formatExactBtc, formatUsdCents } from '../utils/format';

/**
 * Sell confirmation (spec section 2): what the customer receives, the rate, the platform fee and the
 * method's bank charges, how long the quote holds, and the account the dollars go to.
 */
export function SellConfirmationStep({
  quote,
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
  method: TileMethod;
  settings: UserSettings | null;
  secondsToRefresh: number;
  deadlineMs: number;
  onExpire: () => void;
  onBack: () => void;
  onSend: () => void;
  sending: boolean;
}) {
  return (
    <div className="space-y-4">
      <StepHeading onBack={sending ? undefined : onBack}>Confirm your sale</StepHeading>
      <DetailList
        rows={[
          { label: 'You Send', value: quote ? `${formatExactBtc(quote.amountSats)} BTC` : '—' },
          {
            label: 'Rate',
            value: quote ? (
              <>
                1 BTC = {formatUsdCents(quote.priceCents)}
                <span className="block text-xs font-normal text-slate-400">
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
      <CountdownNote
        deadlineMs={deadlineMs}
        onExpire={onExpire}
        label={(time) => `Quote valid for ${time}`}
      />
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Paid to you by {METHOD_LABEL[method]}</p>
        <DetailList rows={payoutRows(method, settings)} />
      </div>
      <Button size="lg" fullWidth onClick={onSend} loading={sending} disabled={!quote}>
        {quote ? `Send ${formatExactBtc(quote.amountSats)} BTC` : 'Send BTC'}
      </Button>
    </div>
  );
}
