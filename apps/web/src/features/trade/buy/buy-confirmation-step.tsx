import { useMemo, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { buyConfirmationFormSchema } from '@offzero/shared/api/orders';
import { ADDRESS_PLACEHOLDER } from '@offzero/shared/bitcoin/address';
import type { BuyQuote } from '@offzero/shared/quotes/quote';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { CountdownNote } from '../components/countdown-note';
import { DetailList } from '../../../components/ui/detail-list';
import { StepHeading } from '../components/step-heading';
import { useAppConfig } from '../../../lib/app-config';
import { firstError, useZodForm } from '../../../lib/forms';
import { formatBuyBtc, formatUsdCents } from '../../../lib/format';

/**
 * Buy confirmation (spec section 2): what the customer receives and pays, the rate and both fees, how
 * long the quote holds, and the bitcoin address it goes to (prefilled from settings, editable). Pay
 * checks the address with the shared schema; a wrong one is refused with the spec's toast, as the
 * server would refuse it.
 */
export function BuyConfirmationStep({
  quote,
  secondsToRefresh,
  deadlineMs,
  onExpire,
  address,
  onAddressChange,
  onBack,
  onPay,
  paying,
}: {
  quote: BuyQuote | null;
  secondsToRefresh: number;
  deadlineMs: number;
  onExpire: () => void;
  address: string;
  onAddressChange: (address: string) => void;
  onBack: () => void;
  onPay: (walletAddress: string) => void;
  paying: boolean;
}) {
  const { bitcoinNetwork } = useAppConfig();
  const schema = useMemo(() => buyConfirmationFormSchema(bitcoinNetwork), [bitcoinNetwork]);
  // The flow keeps the address (it outlives this step); the settings' address may arrive after the
  // step opens, and then fills the field unless the customer has already edited it.
  const form = useZodForm(schema, {
    values: { walletAddress: address },
    resetOptions: { keepDirtyValues: true },
  });
  const submit = form.handleSubmit(
    ({ walletAddress }) => onPay(walletAddress),
    (errors) => {
      const message = firstError(errors, ['walletAddress']);
      if (message) toast.error(message);
    },
  );

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!quote || paying) return;
        void submit(event);
      }}
    >
      <StepHeading onBack={paying ? undefined : onBack}>Confirm your order</StepHeading>
      <DetailList
        rows={[
          {
            label: 'You Receive',
            value: quote ? `${formatBuyBtc(quote.amountSats)} BTC` : '—',
            strong: true,
          },
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
          { label: 'Network Fee', value: quote ? formatUsdCents(quote.networkFeeCents) : '—' },
          { label: 'You Pay', value: quote ? formatUsdCents(quote.valueCents) : '—', strong: true },
        ]}
      />
      <CountdownNote
        deadlineMs={deadlineMs}
        onExpire={onExpire}
        label={(time) => `Quote valid for ${time}`}
      />
      <TextField
        label="Bitcoin address"
        {...form.register('walletAddress', {
          onChange: (event: ChangeEvent<HTMLInputElement>) => onAddressChange(event.target.value),
        })}
        autoComplete="off"
        spellCheck={false}
        placeholder={ADDRESS_PLACEHOLDER[bitcoinNetwork]}
        hint="Your own wallet. We send the bitcoin straight to it."
        inputClassName="font-mono text-sm!"
      />
      <Button type="submit" size="lg" fullWidth loading={paying} disabled={!quote}>
        {quote ? `Pay ${formatUsdCents(quote.valueCents)}` : 'Pay'}
      </Button>
    </form>
  );
}
