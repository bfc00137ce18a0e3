import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { quoteFormSchema, type Order, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { centsToUsdNumber, formatUsd, satsToBtcNumber, type Cents } from '@offzero/shared/money/money';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { useSession } from '../../../lib/session';
import { useTradeAccount } from '../api/get-account';
import { useContinueFromQuote } from '../use-continue-from-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import { useSaveOrder } from '../api/order-calls';
import { useLockQuote, type HeldBuyQuote } from '../api/lock-quote';
import { QuoteStep } from '../components/quote-step';
import { usePrices } from '../price-context';
import { centsOf } from '../../../lib/format';
import { buyQuoteFor, EMPTY_ENTRY, fieldTexts, type AmountEntry } from '../utils/quote-fields';
import { QUOTE_EXPIRED_MESSAGE } from '../utils/messages';
import { BuyCheckoutStep } from './buy-checkout-step';
import { BuyConfirmationStep, type BuyPayoutTarget } from './buy-confirmation-step';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { initialPayoutChoice, type PayoutChoice } from '../components/payout-address-choice';
import { useWalletOwnership } from '../components/wallet-ownership-question';
import { BuySuccessStep } from './buy-success-step';
import { useKeepQuoteAcrossLogin } from '../utils/kept-quote';

/** The buy flow's steps: quote → confirmation → checkout → success. */
type BuyStep =
  | { step: 'quote' }
  | { step: 'confirmation'; quote: HeldBuyQuote }
  | { step: 'checkout'; order: Order }
  | { step: 'success'; order: Order };

interface BuyStart {
  state: BuyStep;
  entry: AmountEntry;
  address: string | null;
  orderId: string | null;
}

/**
 * Where a buy starts: at the quote, or for a pending order at checkout while its quote holds, else at
 * the quote with the same amount, to lock a new quote for it.
 */
function startOf(pending: Order | null | undefined, kept: AmountEntry | undefined): BuyStart {
  if (!pending || pending.type !== 'buy' || pending.status !== 'pending') {
    return { state: { step: 'quote' }, entry: kept ?? EMPTY_ENTRY, address: null, orderId: null };
  }
  const cents = centsOf(pending.value);
  const entry: AmountEntry = { source: 'usd', text: cents === null ? '' : formatUsd(cents) };
  const address = typeof pending.walletAddress === 'string' ? pending.walletAddress : null;
  const state: BuyStep =
    Date.parse(pending.expiresAt) > Date.now() ? { step: 'checkout', order: pending } : { step: 'quote' };
  return { state, entry, address, orderId: pending._id };
}

export function BuyFlow({
  settings,
  pendingOrder,
  keptEntry,
  onStep,
}: {
  settings: TradeSettings;
  pendingOrder?: Order | null;
  /** What was typed when the session ended, back after the login. */
  keptEntry?: AmountEntry;
  /** Told each step, and whether the customer is mid-flow (the tabs stay put meanwhile). */
  onStep: (step: string, inProgress: boolean) => void;
}) {
  const session = useSession();
  const { prices, secondsToRefresh } = usePrices();
  const trade = useTradeAccount();
  const continueFromQuote = useContinueFromQuote('buy', trade, settings);
  const save = useSaveOrder();
  // One key per Pay (the same figures and order): a double click or a retry saves one order.
  const saveKeys = useIdempotencyKeys();
  // Set at once on the first click, before React re-renders the button as busy.
  const saving = useRef(false);
  const [start] = useState(() => startOf(pendingOrder, keptEntry));
  const lock = useLockQuote();
  // One key per quote asked for: a double click on Continue locks one quote.
  const quoteKeys = useIdempotencyKeys();
  const [state, setState] = useState<BuyStep>(start.state);
  const quoteForm = useZodForm(quoteFormSchema, { defaultValues: start.entry });
  const entry: AmountEntry = quoteForm.watch();
  useKeepQuoteAcrossLogin('buy', quoteForm);
  // null until the customer edits it: the wallet address from their settings stands in.
  const [addressDraft, setAddressDraft] = useState<string | null>(start.address);
  // The address book, when it answers: the customer chooses an entry or types a new address.
  const book = usePayoutAddresses();
  const entries = book.isSuccess ? book.data : null;
  // null until the customer chooses: the entry of the order's address, or the default entry, stands in.
  const [choiceDraft, setChoiceDraft] = useState<PayoutChoice | null>(null);
  const choice = choiceDraft ?? initialPayoutChoice(entries ?? [], start.address);
  const [orderId, setOrderId] = useState<string | null>(start.orderId);
  const walletOwnership = useWalletOwnership();

  const quote = buyQuoteFor(
    entry,
    prices
      ? {
          sellPriceCents: prices.sellPriceCents,
          networkFeeSats: prices.networkFeeSats,
          feeBps: settings.feeBps,
          minOrderCents: settings.minOrderCents,
        }
      : null,
  );
  // With saved payout addresses a new one starts blank; else the settings' address is proposed.
  const address =
    addressDraft ?? (entries && entries.length > 0 ? '' : (trade.settings?.walletAddress ?? ''));
  const inProgress = state.step === 'confirmation' || state.step === 'checkout';
  useEffect(() => onStep(state.step, inProgress), [state.step, inProgress, onStep]);

  /** Asks the server to lock a quote for this many dollars; the confirmation shows exactly it. */
  function requestQuote(valueCents: Cents) {
    if (lock.isPending) return;
    const body = { type: 'buy' as const, value: centsToUsdNumber(valueCents) };
    lock.mutate(
      { body, idempotencyKey: quoteKeys.keyFor(body) },
      {
        onSettled: (_answer, error) => quoteKeys.settle(error ?? undefined),
        onSuccess: (locked) => {
          if (locked.type === 'buy') setState({ step: 'confirmation', quote: locked });
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  }

  const onContinue = () =>
    continueFromQuote(entry, quote, prices !== null, () => {
      if (quote) requestQuote(quote.valueCents);
    });

  /** From checkout back to confirmation: a new locked quote for the order's amount. */
  const toConfirmation = (order: Order) => {
    const cents = centsOf(order.value);
    if (cents !== null) requestQuote(cents);
  };

  function submit(body: SaveOrderRequest, existingId: string | null) {
    saving.current = true;
    save.mutate(
      { body, orderId: existingId, idempotencyKey: saveKeys.keyFor({ body, existingId }) },
      {
        onSettled: (_answer, error) => {
          saving.current = false;
          saveKeys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          toast.success(answer.message);
          setOrderId(answer.order._id);
          setState({ step: 'checkout', order: answer.order });
        },
        onError: (error) => {
          // The pending order closed meanwhile (it expired): this quote becomes a new order.
          if (existingId && hasErrorCode(error, 'CONFLICT', 'NOT_FOUND')) {
            setOrderId(null);
            submit(body, null);
            return;
          }
          toast.error(errorMessage(error));
        },
      },
    );
  }

  /**
   * Pay, once the confirmation form holds a valid address (trimmed by the form's schema) or names an
   * entry of the address book.
   */
  function onPay(locked: HeldBuyQuote, target: BuyPayoutTarget) {
    if (!session || save.isPending || saving.current) return;
    if (locked.expiresAtMs <= Date.now()) {
      toast.error(QUOTE_EXPIRED_MESSAGE);
      return;
    }
    const quote = locked;
    const ownership = walletOwnership.answerFor(quote.valueCents);
    if (!ownership.ok) return void toast.error(ownership.message);
    submit(
      {
        userId: session.userId,
        pair: 'BTC-USD',
        type: 'buy',
        amount: satsToBtcNumber(quote.amountSats),
        value: centsToUsdNumber(quote.valueCents),
        price: centsToUsdNumber(quote.priceCents),
        platformFee: centsToUsdNumber(quote.platformFeeCents),
        networkFee: centsToUsdNumber(quote.networkFeeCents),
        expired: settings.sessionTimeoutSeconds,
        ...target,
        quoteId: locked.id,
        ...(ownership.walletOwnership ? { walletOwnership: ownership.walletOwnership } : {}),
      },
      orderId,
    );
  }

  switch (state.step) {
    case 'quote':
      return (
        <QuoteStep
          side="buy"
          form={quoteForm}
          texts={fieldTexts(entry, quote, 'buy')}
          settings={settings}
          priceCents={prices?.sellPriceCents ?? null}
          secondsToRefresh={secondsToRefresh}
          onContinue={onContinue}
          continueLoading={(session !== null && !trade.account && !trade.error) || lock.isPending}
        />
      );
    case 'confirmation':
      return (
        <BuyConfirmationStep
          key={state.quote.id}
          quote={state.quote}
          settings={settings}
          onRenew={() => requestQuote(state.quote.valueCents)}
          renewing={lock.isPending}
          address={address}
          onAddressChange={setAddressDraft}
          book={entries}
          choice={choice}
          onChoiceChange={setChoiceDraft}
          onBack={() => setState({ step: 'quote' })}
          onPay={(target) => onPay(state.quote, target)}
          paying={save.isPending}
          compliance={walletOwnership.question(state.quote.valueCents, 'buy')}
        />
      );
    case 'checkout':
      return (
        <BuyCheckoutStep
          order={state.order}
          settings={settings}
          onPaid={(order) => setState({ step: 'success', order })}
          onBack={() => toConfirmation(state.order)}
          onRequote={() => toConfirmation(state.order)}
        />
      );
    case 'success':
      return <BuySuccessStep order={state.order} />;
  }
}
