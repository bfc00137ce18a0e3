import { useRef } from 'react';
import type { Order, SaveOrderRequest } from '@offzero/shared/api/orders';
import { centsToUsdNumber, satsToBtcNumber, type Cents } from '@offzero/shared/money/money';
import { toast } from '../../../lib/toast';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { centsOf } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import type { Session } from '../../../lib/session';
import type { TradeSettings } from '../api/get-trade-settings';
import { useSaveOrder } from '../api/order-calls';
import { useLockQuote, type HeldBuyQuote } from '../api/lock-quote';
import type { useWalletOwnership } from '../components/wallet-ownership-question';
import { QUOTE_EXPIRED_MESSAGE } from '../utils/messages';
import type { BuyPayoutTarget } from './buy-confirmation-step';
import type { BuyStep } from './buy-step';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';

export interface BuyActionsInput {
  session: Session | null;
  settings: TradeSettings;
  setState: (next: BuyStep) => void;
  /** The pending order this buy completes, if any: saving it again keeps one order. */
  orderId: string | null;
  setOrderId: (id: string | null) => void;
  walletOwnership: ReturnType<typeof useWalletOwnership>;
}

/** The buy flow's calls to the server: lock a quote for an amount, then save the order against it. */
export function useBuyActions({
  session,
  settings,
  setState,
  orderId,
  setOrderId,
  walletOwnership,
}: BuyActionsInput) {
  const save = useSaveOrder();
  // One key per Pay (the same figures and order): a double click or a retry saves one order.
  const saveKeys = useIdempotencyKeys();
  // Set at once on the first click, before React re-renders the button as busy.
  const saving = useRef(false);
  const lock = useLockQuote();
  // One key per quote asked for: a double click on Continue locks one quote.
  const quoteKeys = useIdempotencyKeys();

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

  /** From checkout back to confirmation: a new locked quote for the order's amount. */
  const toConfirmation = (order: Order) => {
    const cents = centsOf(order.value);
    if (cents !== null) requestQuote(cents);
  };

  function submit(
    body: SaveOrderRequest,
    existingId: string | null,
    asked?: { quote: HeldBuyQuote; target: BuyPayoutTarget },
  ) {
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
            submit(body, null, asked);
            return;
          }
          // The scam shield (docs/design.md): a first buy answers the question; "someone asked me" stops it.
          if (asked && hasErrorCode(error, 'SCAM_CHECK_REQUIRED')) {
            setState({ step: 'scam-question', ...asked });
            return;
          }
          if (hasErrorCode(error, 'SCAM_SUSPECTED')) {
            setState({ step: 'scam-guidance' });
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
  function onPay(locked: HeldBuyQuote, target: BuyPayoutTarget, scamCheck?: ScamCheck) {
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
        ...(scamCheck ? { scamCheck } : {}),
      },
      orderId,
      { quote: locked, target },
    );
  }

  return { lock, save, requestQuote, toConfirmation, onPay };
}
