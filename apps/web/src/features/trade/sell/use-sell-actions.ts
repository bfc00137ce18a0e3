import { useRef } from 'react';
import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { SellDeposit } from '@offzero/shared/api/order-lightning';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { centsToUsdNumber, satsToBtcNumber, type Sats } from '@offzero/shared/money/money';
import { toast } from '../../../lib/toast';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import type { Session } from '../../../lib/session';
import type { useTaxDetails } from '../../../domain/tax-details';
import type { useTradeAccount } from '../api/get-account';
import type { TradeSettings } from '../api/get-trade-settings';
import { useSaveOrder } from '../api/order-calls';
import { useLockQuote, type HeldSellQuote } from '../api/lock-quote';
import type { TileMethod } from '../components/method-tile';
import type { useWalletOwnership } from '../components/wallet-ownership-question';
import { QUOTE_EXPIRED_MESSAGE } from '../utils/messages';
import { sellBlockedReason, sellQuoteFor, type AmountEntry, type SellTerms } from '../utils/quote-fields';
import { minimumOrderMessage, sellMethodFailure } from '../utils/trade-checks';
import type { SellStep } from './sell-step';

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

export interface SellActionsInput {
  session: Session | null;
  settings: TradeSettings;
  trade: ReturnType<typeof useTradeAccount>;
  /** The sell terms before bank charges; null until the prices arrive. */
  terms: SellTerms | null;
  entry: AmountEntry;
  state: SellStep;
  setState: (next: SellStep) => void;
  setClosed: (status: string | null) => void;
  /** Forgets the order whose deposit was handled last (a new order is watched). */
  rewatch: () => void;
  taxDetails: ReturnType<typeof useTaxDetails>;
  walletOwnership: ReturnType<typeof useWalletOwnership>;
  /** How the bitcoin is sent: the quote and the order carry it (a Lightning sell gets an invoice). */
  deposit: SellDeposit;
}

/** The sell flow's calls to the server: lock a quote for a method, then save the order against it. */
export function useSellActions(input: SellActionsInput) {
  const { session, settings, trade, terms, entry, state, setState, setClosed, rewatch } = input;
  const save = useSaveOrder();
  // One key per "Send … BTC" (the same figures and method): a double click or a retry saves one order.
  const saveKeys = useIdempotencyKeys();
  // Set at once on the first click, before React re-renders the button as busy.
  const saving = useRef(false);
  const lock = useLockQuote();
  // One key per quote asked for: a double click on a method locks one quote.
  const quoteKeys = useIdempotencyKeys();

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
    const body = {
      type: 'sell' as const,
      amount: satsToBtcNumber(amountSats),
      method: chosen,
      deposit: input.deposit,
    };
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
    const ownership = input.walletOwnership.answerFor(quote.valueCents);
    if (!ownership.ok) return void toast.error(ownership.message);
    const body: SaveOrderRequest = {
      ...sellOrderBody(session, quote, settings),
      bankAccount: payoutAccount(chosen, trade.settings),
      quoteId: quote.id,
      deposit: input.deposit,
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
          rewatch();
          setClosed(null);
          setState({ step: 'QRCODE', order: answer.order });
        },
        onError: (error) => {
          toast.error(errorMessage(error));
          // Filed nowhere after all (another device, a reset): the W-9 step, then back here.
          if (hasErrorCode(error, 'W9_REQUIRED')) {
            void input.taxDetails.refetch();
            setState({ step: 'tax_details' });
          }
        },
      },
    );
  }

  return { lock, save, onChoose, requestQuote, onSend };
}

/** The figures of the locked quote, as the sell order carries them (the server prices it again). */
function sellOrderBody(
  session: Session,
  quote: HeldSellQuote,
  settings: TradeSettings,
): Omit<SaveOrderRequest, 'bankAccount' | 'quoteId'> {
  return {
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
  };
}
