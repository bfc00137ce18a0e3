import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { quoteFormSchema, type Order, type SaveOrderRequest } from '@offzero/shared/api/orders';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { centsToUsdNumber, satsToBtcNumber, type Sats } from '@offzero/shared/money/money';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { paths } from '../../../config/paths';
import { useTaxDetails } from '../../../domain/tax-details';
import { useZodForm } from '../../../lib/forms';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { useRealtimeConnected, useRealtimeEvent } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';
import { ordersQueryKey, useOrders } from '../../../domain/orders';
import { useTradeAccount } from '../api/get-account';
import { useContinueFromQuote } from '../use-continue-from-quote';
import type { TradeSettings } from '../api/get-trade-settings';
import { useSaveOrder } from '../api/order-calls';
import { useLockQuote, type HeldSellQuote } from '../api/lock-quote';
import type { TileMethod } from '../components/method-tile';
import { QuoteStep } from '../components/quote-step';
import { StepHeading } from '../components/step-heading';
import { usePrices } from '../price-context';
import { formatExactBtc, satsOf } from '../../../lib/format';
import { QUOTE_EXPIRED_MESSAGE } from '../utils/messages';
import {
  EMPTY_ENTRY,
  fieldTexts,
  sellBlockedReason,
  sellQuoteFor,
  type AmountEntry,
} from '../utils/quote-fields';
import { minimumOrderMessage, sellMethodFailure } from '../utils/trade-checks';
import { SellConfirmationStep } from './sell-confirmation-step';
import { useWalletOwnership } from '../components/wallet-ownership-question';
import { depositOf, SellDepositStep } from './sell-deposit-step';
import { SellMethodStep } from './sell-method-step';
import { SellSuccessStep } from './sell-success-step';
import { useKeepQuoteAcrossLogin } from '../utils/kept-quote';

/** The sell flow's steps: quote → payment_method → confirmation → QRCODE → success. */
type SellStep =
  | { step: 'quote' }
  | { step: 'tax_details' }
  | { step: 'payment_method' }
  /** `quote` is the server's locked quote; null when the amount typed cannot be sold by this method. */
  | { step: 'confirmation'; method: TileMethod; quote: HeldSellQuote | null }
  | { step: 'QRCODE'; order: Order }
  | { step: 'success'; order: Order; txid: string; amountSats: Sats | null };

/** While the realtime channel is down, the open sell order is read this often instead. */
export const DEPOSIT_POLL_MS = 5_000;

/** A pending sell whose deposit window is still open goes straight back to its deposit screen. */
function startOf(pending: Order | null | undefined): SellStep {
  return pending?.type === 'sell' &&
    pending.status === 'pending' &&
    depositOf(pending) &&
    Date.parse(pending.expiresAt) > Date.now()
    ? { step: 'QRCODE', order: pending }
    : { step: 'quote' };
}

/** A sale is typed in bitcoin first. */
const SELL_START: AmountEntry = { ...EMPTY_ENTRY, source: 'btc' };

/** The customer's payout details as the sell order carries them (the server checks them again). */
function payoutAccount(method: TileMethod, settings: UserSettings | null): SaveOrderRequest['bankAccount'] {
  const bank = settings?.bankAccount;
  const present = (value: string | null | undefined) => (value ? value : undefined);
  return {
    method,
    zelleEmail: present(settings?.zelleEmail),
    bank_name: present(bank?.bank_name),
    account_name: present(bank?.account_name),
    account_number: present(bank?.account_number),
    address: present(bank?.address),
    routing_number: present(bank?.routing_number),
    swift: present(bank?.swift),
  };
}

/** The W-9 form the composing route supplies (the tax feature's), shown when none is on file. */
export type TaxDetailsForm = (props: { onSaved: () => void }) => ReactNode;

export function SellFlow({
  settings,
  pendingOrder,
  keptEntry,
  onStep,
  taxDetailsForm: TaxDetails,
}: {
  settings: TradeSettings;
  pendingOrder?: Order | null;
  /** What was typed when the session ended, back after the login. */
  keptEntry?: AmountEntry;
  onStep: (step: string, inProgress: boolean) => void;
  taxDetailsForm?: TaxDetailsForm;
}) {
  const session = useSession();
  const queryClient = useQueryClient();
  const { prices, secondsToRefresh } = usePrices();
  const trade = useTradeAccount();
  const continueFromQuote = useContinueFromQuote('sell', trade, settings);
  const save = useSaveOrder();
  const walletOwnership = useWalletOwnership();
  // A sale is reported to the IRS: the first one needs the customer's W-9 (docs/design.md).
  const taxDetails = useTaxDetails();
  // One key per "Send … BTC" (the same figures and method): a double click or a retry saves one order.
  const saveKeys = useIdempotencyKeys();
  // Set at once on the first click, before React re-renders the button as busy.
  const saving = useRef(false);
  const [state, setState] = useState<SellStep>(() => startOf(pendingOrder));
  const lock = useLockQuote();
  // One key per quote asked for: a double click on a method locks one quote.
  const quoteKeys = useIdempotencyKeys();
  const quoteForm = useZodForm(quoteFormSchema, { defaultValues: keptEntry ?? SELL_START });
  const entry: AmountEntry = quoteForm.watch();
  useKeepQuoteAcrossLogin('sell', quoteForm);
  const [closed, setClosed] = useState<string | null>(null);

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

  // ----- Waiting for the deposit: realtime events, and polling while the channel is down. -----
  const watching = state.step === 'QRCODE' ? state.order : null;
  const connected = useRealtimeConnected();
  const poll = useOrders({
    limit: 20,
    enabled: watching !== null,
    refetchInterval: watching && !connected ? DEPOSIT_POLL_MS : false,
  });
  const handled = useRef<string | null>(null);

  function received(order: Order, amountBtc: number, txid: string) {
    if (handled.current === order._id) return;
    handled.current = order._id;
    const amountSats = satsOf(amountBtc);
    toast.success(
      `${amountSats === null ? amountBtc : formatExactBtc(amountSats)} BTC received successfully`,
    );
    setState({ step: 'success', order, txid, amountSats });
    void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
  }

  function check(order: Order) {
    if (!watching || order._id !== watching._id) return;
    if (order.txn) received(order, order.amount, order.txn);
    else if (order.status === 'expired' || order.status === 'cancelled') setClosed(order.status);
  }

  useRealtimeEvent('new-transaction', (payload) => {
    if (watching && payload._id === watching._id) received(watching, payload.amount, payload.txn);
  });
  useRealtimeEvent('order-updated', ({ order }) => check(order));

  const { refetch } = poll;
  const pollEnabled = watching !== null;
  useEffect(() => {
    // Back online: whatever happened meanwhile is read once.
    if (connected && pollEnabled) void refetch();
  }, [connected, pollEnabled, refetch]);

  const polled = poll.data;
  useEffect(() => {
    const order = polled?.find((candidate) => candidate._id === watching?._id);
    if (order) check(order);
    // `check` reads the latest state; only new poll answers matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [polled]);

  // ----- Steps -----

  const onContinue = () =>
    continueFromQuote(entry, quote, prices !== null, () =>
      setState({ step: taxDetails.data === null ? 'tax_details' : 'payment_method' }),
    );

  /**
   * A method chosen: the server locks a quote for this amount and method, which the confirmation shows.
   * An amount the method's charges would eat is explained there instead (the server would refuse it).
   */
  function onChoose(chosen: TileMethod) {
    const failure = sellMethodFailure(chosen, trade.settings);
    if (failure) {
      toast.error(failure);
      return;
    }
    const withCharges = terms ? { ...terms, bankChargesCents: settings.bankChargesCents[chosen] } : null;
    const live = sellQuoteFor(entry, withCharges);
    if (!live || sellBlockedReason(entry, withCharges, chosen)) {
      setState({ step: 'confirmation', method: chosen, quote: null });
      return;
    }
    requestQuote(live.amountSats, chosen);
  }

  function requestQuote(amountSats: Sats, chosen: TileMethod) {
    if (lock.isPending) return;
    const body = { type: 'sell' as const, amount: satsToBtcNumber(amountSats), method: chosen };
    lock.mutate(
      { body, idempotencyKey: quoteKeys.keyFor(body) },
      {
        onSettled: (_answer, error) => quoteKeys.settle(error ?? undefined),
        onSuccess: (locked) => {
          if (locked.type === 'sell') setState({ step: 'confirmation', method: chosen, quote: locked });
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  }

  function onSend(chosen: TileMethod) {
    const quote = state.step === 'confirmation' ? state.quote : null;
    if (!quote || !session || save.isPending || saving.current) return;
    if (quote.expiresAtMs <= Date.now()) {
      toast.error(QUOTE_EXPIRED_MESSAGE);
      return;
    }
    if (quote.valueCents < settings.minOrderCents) {
      toast.error(minimumOrderMessage(settings.minOrderCents));
      return;
    }
    const ownership = walletOwnership.answerFor(quote.valueCents);
    if (!ownership.ok) return void toast.error(ownership.message);
    const body: SaveOrderRequest = {
      userId: session.userId,
      pair: 'BTC-USD',
      type: 'sell',
      amount: satsToBtcNumber(quote.amountSats),
      value: centsToUsdNumber(quote.valueCents),
      price: centsToUsdNumber(quote.priceCents),
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: 0,
      bankFee: centsToUsdNumber(quote.bankFeeCents),
      expired: settings.sessionTimeoutSeconds,
      walletAddress: '',
      bankAccount: payoutAccount(chosen, trade.settings),
      quoteId: quote.id,
      ...(ownership.walletOwnership ? { walletOwnership: ownership.walletOwnership } : {}),
    };
    saving.current = true;
    save.mutate(
      { body, idempotencyKey: saveKeys.keyFor(body) },
      {
        onSettled: (_answer, error) => {
          saving.current = false;
          saveKeys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          toast.success(answer.message);
          handled.current = null;
          setClosed(null);
          setState({ step: 'QRCODE', order: answer.order });
        },
        onError: (error) => {
          toast.error(errorMessage(error));
          // Filed nowhere after all (another device, a reset): the W-9 step, then back here.
          if (hasErrorCode(error, 'W9_REQUIRED')) {
            void taxDetails.refetch();
            setState({ step: 'tax_details' });
          }
        },
      },
    );
  }

  switch (state.step) {
    case 'quote':
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
    case 'tax_details':
      return (
        <div className="space-y-4" data-testid="sell-tax-details-step">
          <StepHeading onBack={() => setState({ step: 'quote' })}>
            Add your tax details (Form W-9)
          </StepHeading>
          <p className="text-sm text-slate-600">
            We report sales of bitcoin to the IRS on Form 1099-DA, so we need your W-9 once, before your first
            sale. Your number is encrypted; only its last four digits are ever shown.
          </p>
          {TaxDetails ? (
            <TaxDetails onSaved={() => setState({ step: 'payment_method' })} />
          ) : (
            <Link to={paths.settings} className="text-sm font-semibold text-brand-700 hover:underline">
              Add your tax details in Settings
            </Link>
          )}
        </div>
      );
    case 'payment_method':
      return (
        <SellMethodStep
          settings={settings}
          onChoose={onChoose}
          choosing={lock.isPending}
          onBack={() => setState({ step: 'quote' })}
        />
      );
    case 'confirmation':
      return (
        <SellConfirmationStep
          key={state.quote?.id ?? 'blocked'}
          quote={state.quote}
          blockedReason={blockedReason}
          method={state.method}
          settings={trade.settings}
          tradeSettings={settings}
          onRenew={() => {
            if (state.quote) requestQuote(state.quote.amountSats, state.method);
          }}
          renewing={lock.isPending}
          onBack={() => setState({ step: 'payment_method' })}
          onSend={onSend}
          sending={save.isPending}
          compliance={walletOwnership.question(state.quote?.valueCents ?? null, 'sell')}
        />
      );
    case 'QRCODE':
      return (
        <SellDepositStep
          order={state.order}
          closed={closed}
          onRestart={() => {
            setClosed(null);
            setState({ step: 'quote' });
          }}
        />
      );
    case 'success':
      return <SellSuccessStep order={state.order} txid={state.txid} amountSats={state.amountSats} />;
  }
}
