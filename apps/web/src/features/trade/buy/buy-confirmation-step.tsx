import { useMemo, type ChangeEvent, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { buyConfirmationFormSchema } from '@offzero/shared/api/orders';
import { ADDRESS_PLACEHOLDER } from '@offzero/shared/bitcoin/address';
import {
  payoutDestinationKind,
  type PayoutDestinationKind,
} from '@offzero/shared/bitcoin/payout-destination';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { PayoutAddress } from '@offzero/shared/api/payout-addresses';
import { BUY_FUNDING_RAILS } from '@offzero/shared/rails/rails';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import type { HeldBuyQuote } from '../api/lock-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import {
  ArrivalTimes,
  LockedRate,
  QuoteLock,
  SpreadLabel,
  useQuoteExpired,
} from '../components/locked-quote';
import { DetailList } from '../../../components/ui/detail-list';
import { StepHeading } from '../components/step-heading';
import { PayoutAddressChoice, type PayoutChoice } from '../components/payout-address-choice';
import { useAppConfig } from '../../../lib/app-config';
import { firstError, useZodForm } from '../../../lib/forms';
import { formatBuyBtc, formatUsdCents } from '../../../lib/format';
import { DestinationKindNote } from './destination-kind-note';

/** Where the order's bitcoin goes: an address typed in, or an entry of the address book. */
export type BuyPayoutTarget = { walletAddress: string } | { payoutAddressId: string; walletAddress?: string };

/**
 * Buy confirmation (docs/design.md): the server's locked quote — what the customer
 * receives and pays, the rate against the mid-market price, both fees and the spread — which does not
 * move while its real countdown runs; when it runs out, a way to a new quote. Then the bitcoin address
 * it goes to: with payout addresses saved, a choice of them (the default first chosen) or a new one;
 * else the address field (prefilled from settings, editable). Pay checks a typed address with the
 * shared schema; a wrong one is refused with the spec's toast, as the server would refuse it. Render it
 * with `key={quote.id}`: a new quote starts a new countdown.
 */
/** The licence line and disclosures of the customer's place, under the locked quote. */
function QuotePlaceTerms({ place }: { place: HeldBuyQuote['place'] }) {
  if (!place) return null;
  return (
    <p data-testid="place-terms" className="text-xs leading-5 text-slate-500">
      {place.licence} {place.disclosures}
    </p>
  );
}

export function BuyConfirmationStep({
  quote,
  settings,
  onRenew,
  renewing,
  address,
  onAddressChange,
  book,
  choice,
  onChoiceChange,
  onBack,
  onPay,
  paying,
  compliance,
}: {
  quote: HeldBuyQuote;
  settings: TradeSettings;
  /** Asks for a new locked quote for the same amount (after this one expired). */
  onRenew: () => void;
  renewing: boolean;
  address: string;
  onAddressChange: (address: string) => void;
  /** The customer's payout addresses; null while they are unknown (then only the field is shown). */
  book: readonly PayoutAddress[] | null;
  choice: PayoutChoice;
  onChoiceChange: (choice: PayoutChoice) => void;
  onBack: () => void;
  onPay: (target: BuyPayoutTarget) => void;
  paying: boolean;
  /** Questions the order must answer before it is saved (the Travel Rule's, from $3,000). */
  compliance?: ReactNode;
}) {
  const { bitcoinNetwork } = useAppConfig();
  const [expired, setExpired] = useQuoteExpired(quote.expiresAtMs);
  const schema = useMemo(() => buyConfirmationFormSchema(bitcoinNetwork), [bitcoinNetwork]);
  // The flow keeps the address (it outlives this step); the settings' address may arrive after the
  // step opens, and then fills the field unless the customer has already edited it.
  const form = useZodForm(schema, {
    values: { walletAddress: address },
    resetOptions: { keepDirtyValues: true },
  });
  const entries = book ?? [];
  // With no payout address saved yet, the one typed here is new: the payout waits for its confirmation.
  const firstAddress = book !== null && entries.length === 0;
  const chosen = choice.kind === 'entry' ? entries.find((entry) => entry.id === choice.entryId) : undefined;
  // What the customer typed, told apart by its form: a Lightning invoice is a one-time destination.
  const kind = payoutDestinationKind(form.watch('walletAddress'), bitcoinNetwork);
  const submitAddress = form.handleSubmit(
    ({ walletAddress }) => onPay({ walletAddress }),
    (errors) => {
      const message = firstError(errors, ['walletAddress']);
      if (message) toast.error(message);
    },
  );

  const addressField = (
    <DestinationField
      field={form.register('walletAddress', {
        onChange: (event: ChangeEvent<HTMLInputElement>) => onAddressChange(event.target.value),
      })}
      placeholder={ADDRESS_PLACEHOLDER[bitcoinNetwork]}
      hint={destinationHint(kind, firstAddress)}
      kind={kind}
      quote={quote}
    />
  );

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (expired || paying) return;
        if (chosen) {
          onPay(entryTarget(chosen));
          return;
        }
        void submitAddress(event);
      }}
    >
      <StepHeading onBack={paying ? undefined : onBack}>Confirm your order</StepHeading>
      <BuyQuoteFigures quote={quote} />
      <QuoteLock
        expiresAtMs={quote.expiresAtMs}
        expired={expired}
        onExpire={() => setExpired(true)}
        onRenew={onRenew}
        renewing={renewing}
      />
      <ArrivalTimes
        title="When your bitcoin is sent, by how you pay"
        settings={settings}
        methods={[...BUY_FUNDING_RAILS]}
      />
      {entries.length > 0 ? (
        <PayoutAddressChoice
          entries={entries}
          choice={chosen ? choice : { kind: 'new' }}
          onChange={onChoiceChange}
          newAddressField={addressField}
          oneTimeDestination={kind === 'invoice'}
        />
      ) : (
        addressField
      )}
      {compliance}
      <QuotePlaceTerms place={quote.place} />
      {!expired && (
        <Button type="submit" size="lg" fullWidth loading={paying}>
          Pay {formatUsdCents(quote.valueCents)}
        </Button>
      )}
    </form>
  );
}

/** What the field says of the destination typed: an invoice is paid once; a new address is confirmed first. */
function destinationHint(kind: PayoutDestinationKind | null, firstAddress: boolean): string {
  if (kind === 'invoice')
    return 'An invoice from your own wallet. We pay it once, as soon as your payment arrives.';
  return firstAddress
    ? 'Your own wallet. We e-mail you a link to confirm it, and send your bitcoin once you open it.'
    : 'Your own wallet. We send the bitcoin straight to it.';
}

/** The destination field, and under it the kind typed with its Lightning routing-fee budget. */
function DestinationField({
  field,
  placeholder,
  hint,
  kind,
  quote,
}: {
  field: UseFormRegisterReturn<'walletAddress'>;
  placeholder: string;
  hint: string;
  kind: PayoutDestinationKind | null;
  quote: HeldBuyQuote;
}) {
  return (
    <div className="space-y-2">
      <TextField
        label="Bitcoin address or Lightning invoice"
        {...field}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        hint={hint}
        inputClassName="font-mono text-sm!"
      />
      {kind && (
        <DestinationKindNote
          kind={kind}
          amountSats={quote.amountSats}
          feeBudgetSats={quote.lightningFeeBudgetSats}
        />
      )}
    </div>
  );
}

/** The server pays the entry: its address (an xpub entry's is derived at payout). */
function entryTarget(entry: PayoutAddress): BuyPayoutTarget {
  return entry.address
    ? { payoutAddressId: entry.id, walletAddress: entry.address }
    : { payoutAddressId: entry.id };
}

/** The locked quote's figures. */
function BuyQuoteFigures({ quote }: { quote: HeldBuyQuote }) {
  return (
    <DetailList
      rows={[
        { label: 'You Receive', value: `${formatBuyBtc(quote.amountSats)} BTC`, strong: true },
        {
          label: 'Rate',
          value: <LockedRate priceCents={quote.priceCents} midPriceCents={quote.midPriceCents} />,
        },
        { label: 'Platform Fee', value: formatUsdCents(quote.platformFeeCents) },
        { label: 'Network Fee', value: formatUsdCents(quote.networkFeeCents) },
        { label: <SpreadLabel />, value: formatUsdCents(quote.spreadCents) },
        { label: 'You Pay', value: formatUsdCents(quote.valueCents), strong: true },
      ]}
    />
  );
}
