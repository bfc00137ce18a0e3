import { useEffect, useState } from 'react';
import { quoteFormSchema, type Order } from '@offzero/shared/api/orders';
import { useZodForm } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { useTradeAccount } from '../api/get-account';
import { useContinueFromQuote } from '../use-continue-from-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import { QuoteStep } from '../components/quote-step';
import { usePrices } from '../price-context';
import { buyQuoteFor, fieldTexts, type AmountEntry } from '../utils/quote-fields';
import { BuyCheckoutStep } from './buy-checkout-step';
import { BuyConfirmationStep } from './buy-confirmation-step';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { initialPayoutChoice, type PayoutChoice } from '../components/payout-address-choice';
import { useWalletOwnership } from '../components/wallet-ownership-question';
import { BuySuccessStep } from './buy-success-step';
import { useKeepQuoteAcrossLogin } from '../utils/kept-quote';
import { buyStartOf, isBuyInProgress, type BuyStep } from './buy-step';
import { useBuyActions } from './use-buy-actions';
import { ScamGuidanceStep, ScamQuestionStep } from '../../../components/scam-shield-steps';

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
  const [start] = useState(() => buyStartOf(pendingOrder, keptEntry));
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
  const inProgress = isBuyInProgress(state);
  useEffect(() => onStep(state.step, inProgress), [state.step, inProgress, onStep]);
  const { lock, save, requestQuote, toConfirmation, onPay } = useBuyActions({
    session,
    settings,
    setState,
    orderId,
    setOrderId,
    walletOwnership,
  });

  const onContinue = () =>
    continueFromQuote(entry, quote, prices !== null, () => {
      if (quote) requestQuote(quote.valueCents);
    });

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
    case 'scam-question':
      return (
        <ScamQuestionStep
          sending={save.isPending}
          onBack={() => setState({ step: 'confirmation', quote: state.quote })}
          onAnswer={(answer) => onPay(state.quote, state.target, answer)}
        />
      );
    case 'scam-guidance':
      return <ScamGuidanceStep onDone={() => setState({ step: 'quote' })} />;
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
