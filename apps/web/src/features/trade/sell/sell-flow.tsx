import { useEffect, useState } from 'react';
import { quoteFormSchema, type Order } from '@offzero/shared/api/orders';
import { type SellDeposit } from '@offzero/shared/api/order-lightning';
import { useTaxDetails } from '../../../domain/tax-details';
import { useZodForm } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { useTradeAccount } from '../api/get-account';
import { useContinueFromQuote } from '../use-continue-from-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import { QuoteStep } from '../components/quote-step';
import { usePrices } from '../price-context';
import {
  EMPTY_ENTRY,
  fieldTexts,
  sellBlockedReason,
  sellQuoteFor,
  type AmountEntry,
} from '../utils/quote-fields';
import { useWalletOwnership } from '../components/wallet-ownership-question';
import { useKeepQuoteAcrossLogin } from '../utils/kept-quote';
import { sellStartOf, type SellStep } from './sell-step';
import { SellSteps, type TaxDetailsForm } from './sell-steps';
import { useDepositWatch } from './use-deposit-watch';
import { useSellActions } from './use-sell-actions';

/** A sale is typed in bitcoin first. */
const SELL_START: AmountEntry = { ...EMPTY_ENTRY, source: 'btc' };

export function SellFlow({
  settings,
  pendingOrder,
  keptEntry,
  onStep,
  taxDetailsForm,
}: {
  settings: TradeSettings;
  pendingOrder?: Order | null;
  /** What was typed when the session ended, back after the login. */
  keptEntry?: AmountEntry;
  onStep: (step: string, inProgress: boolean) => void;
  taxDetailsForm?: TaxDetailsForm;
}) {
  const session = useSession();
  const { prices, secondsToRefresh } = usePrices();
  const trade = useTradeAccount();
  const continueFromQuote = useContinueFromQuote('sell', trade, settings);
  const walletOwnership = useWalletOwnership();
  // A sale is reported to the IRS: the first one needs the customer's W-9 (docs/design.md).
  const taxDetails = useTaxDetails();
  const [state, setState] = useState<SellStep>(() => sellStartOf(pendingOrder));
  const quoteForm = useZodForm(quoteFormSchema, { defaultValues: keptEntry ?? SELL_START });
  const entry: AmountEntry = quoteForm.watch();
  useKeepQuoteAcrossLogin('sell', quoteForm);
  const [closed, setClosed] = useState<string | null>(null);
  // How the bitcoin is sent: chosen with the payout method, carried by the quote and the order. On
  // chain whatever was chosen while the operator has Lightning switched off.
  const [chosenDeposit, setDeposit] = useState<SellDeposit>('onchain');
  const deposit: SellDeposit = settings.lightningActive ? chosenDeposit : 'onchain';

  const method = state.step === 'confirmation' ? state.method : null;
  const terms = prices
    ? {
        buyPriceCents: prices.buyPriceCents,
        feeBps: settings.feeBps,
        minOrderCents: settings.minOrderCents,
        // Until a method is chosen the quote is before bank charges.
        bankChargesCents: method ? settings.bankChargesCents[method] : 0n,
      }
    : null;
  const quote = sellQuoteFor(entry, terms);
  // Once a method is chosen, an amount its charges would eat is explained, not shown as dashes.
  const blockedReason = method ? sellBlockedReason(entry, terms, method) : null;
  const inProgress =
    state.step === 'tax_details' ||
    state.step === 'payment_method' ||
    state.step === 'confirmation' ||
    state.step === 'QRCODE';
  useEffect(() => onStep(state.step, inProgress), [state.step, inProgress, onStep]);

  const rewatch = useDepositWatch(state, setState, setClosed);
  const actions = useSellActions({
    session,
    settings,
    trade,
    terms,
    entry,
    state,
    setState,
    setClosed,
    rewatch,
    taxDetails,
    walletOwnership,
    deposit,
  });

  if (state.step === 'quote') {
    const onContinue = () =>
      continueFromQuote(entry, quote, prices !== null, () =>
        setState({ step: taxDetails.data === null ? 'tax_details' : 'payment_method' }),
      );
    return (
      <QuoteStep
        side="sell"
        form={quoteForm}
        texts={fieldTexts(entry, quote, 'sell')}
        settings={settings}
        priceCents={prices?.buyPriceCents ?? null}
        secondsToRefresh={secondsToRefresh}
        onContinue={onContinue}
        continueLoading={session !== null && !trade.account && !trade.error}
      />
    );
  }
  return (
    <SellSteps
      state={state}
      setState={setState}
      settings={settings}
      userSettings={trade.settings}
      taxDetailsForm={taxDetailsForm}
      blockedReason={blockedReason}
      closed={closed}
      onRestart={() => {
        setClosed(null);
        setState({ step: 'quote' });
      }}
      deposit={deposit}
      onDepositChange={setDeposit}
      onChoose={actions.onChoose}
      choosing={actions.lock.isPending}
      onRenew={actions.requestQuote}
      onSend={actions.onSend}
      sending={actions.save.isPending}
      question={walletOwnership.question}
    />
  );
}
