import {
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { Link } from 'react-router';
import type { Order } from '@offzero/shared/api/orders';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/api-client';
import { useStartReads } from '../../lib/start-reads';
import { startTradeWidgetReads } from './trade-widget-reads';
import { Button } from '../../components/ui/button';
import { PaymentMethods } from '../../components/ui/payment-methods';
import { useTradeSettings } from './api/get-trade-settings';
import { BuyFlow } from './buy/buy-flow';
import { SellFlow } from './sell/sell-flow';
import type { TaxDetailsForm } from './sell/sell-steps';
import { focusStepHeading } from './components/step-heading';
import type { TradeSide } from './utils/trade-checks';
import { keptQuote, useForgetKeptQuote } from './utils/kept-quote';

const TABS: { side: TradeSide; label: string }[] = [
  { side: 'buy', label: 'Buy' },
  { side: 'sell', label: 'Sell' },
];

/**
 * The trade widget: Buy and Sell tabs, each a flow of steps. Used on the home page
 * (not embedded: with the terms notice and the accepted payment methods), on the dashboard and, with
 * a pending order, from My Orders. It needs a `PriceProvider` above it. Visitors get live quotes too;
 * Continue sends them to the login page.
 */
export function TradeWidget({
  pendingOrder = null,
  embedded = false,
  className,
  taxDetailsForm,
}: {
  /** The W-9 form shown before a first sell (the tax feature's, supplied by the composing route). */
  taxDetailsForm?: TaxDetailsForm;
  /** A pending order to complete: the widget opens on its side, at the step where it stands. */
  pendingOrder?: Order | null;
  embedded?: boolean;
  className?: string;
}) {
  const id = useId();
  useStartReads(startTradeWidgetReads);
  const settings = useTradeSettings();
  // The flow is a large first render: once the settings arrive it is rendered as a transition, in
  // slices between which the browser paints and answers input (the skeleton stays up meanwhile).
  const settingsData = useDeferredValue(settings.data);
  // What was typed when the session ended comes back after the login (never over a pending order).
  const [kept] = useState(() => (pendingOrder ? null : keptQuote()));
  useForgetKeptQuote();
  const [side, setSide] = useState<TradeSide>(
    pendingOrder?.type === 'sell' ? 'sell' : pendingOrder ? 'buy' : (kept?.side ?? 'buy'),
  );
  // Mid-flow (an order being confirmed, paid or awaited) the tabs stay put.
  const [inProgress, setInProgress] = useState(false);
  const [step, setStep] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const onStep = useCallback((next: string, busy: boolean) => {
    setStep(next);
    setInProgress(busy);
  }, []);
  useStepFocus(rootRef, step);

  function select(next: TradeSide) {
    if (inProgress || next === side) return;
    setSide(next);
  }

  return (
    <div
      ref={rootRef}
      data-testid="trade-widget"
      className={`w-full scroll-mt-24 rounded-3xl bg-white p-4 text-slate-900 sm:p-6 ${
        embedded ? 'shadow-sm ring-1 ring-slate-200/80' : 'shadow-2xl ring-1 shadow-black/30 ring-black/5'
      } ${className ?? ''}`}
    >
      <TradeTabs id={id} side={side} inProgress={inProgress} onSelect={select} />

      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${side}`} className="mt-5">
        {settingsData ? (
          side === 'buy' ? (
            <BuyFlow
              key="buy"
              settings={settingsData}
              pendingOrder={pendingOrder?.type === 'buy' ? pendingOrder : null}
              keptEntry={kept?.side === 'buy' ? kept.entry : undefined}
              onStep={onStep}
            />
          ) : (
            <SellFlow
              key="sell"
              settings={settingsData}
              pendingOrder={pendingOrder?.type === 'sell' ? pendingOrder : null}
              keptEntry={kept?.side === 'sell' ? kept.entry : undefined}
              onStep={onStep}
              taxDetailsForm={taxDetailsForm}
            />
          )
        ) : settings.error ? (
          <div role="alert" className="space-y-3 py-6 text-center">
            <p className="text-sm text-slate-600">{errorMessage(settings.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <WidgetSkeleton />
        )}
      </div>

      {!embedded && <TermsAndMethods />}
    </div>
  );
}

/**
 * A new step replaces the widget's content: bring its top into view if it scrolled away, and move
 * focus to the new step's heading (not on the first step).
 */
function useStepFocus(rootRef: RefObject<HTMLDivElement | null>, step: string | null) {
  const firstStep = useRef(true);
  useEffect(() => {
    if (step === null) return;
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    const root = rootRef.current;
    // 80 px: below the sticky top bars. (Test DOMs have no scrolling.)
    if (root && typeof root.scrollIntoView === 'function' && root.getBoundingClientRect().top < 80) {
      root.scrollIntoView({ block: 'start', behavior: 'smooth' });
    }
    if (root) focusStepHeading(root);
  }, [rootRef, step]);
}

/** The Buy and Sell tabs; mid-flow they stay put. */
function TradeTabs({
  id,
  side,
  inProgress,
  onSelect: select,
}: {
  id: string;
  side: TradeSide;
  inProgress: boolean;
  onSelect: (side: TradeSide) => void;
}) {
  const tabRefs = useRef<Record<TradeSide, HTMLButtonElement | null>>({ buy: null, sell: null });

  // Tabs follow the ARIA pattern: arrow keys move between them.
  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    if (inProgress) return;
    const next: TradeSide = side === 'buy' ? 'sell' : 'buy';
    select(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div role="tablist" aria-label="Trade" className="grid grid-cols-2 gap-1 rounded-full bg-slate-100 p-1">
      {TABS.map(({ side: key, label }) => {
        const selected = key === side;
        return (
          <button
            key={key}
            ref={(element) => {
              tabRefs.current[key] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${key}`}
            aria-selected={selected}
            aria-controls={`${id}-panel`}
            aria-disabled={!selected && inProgress ? true : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => select(key)}
            onKeyDown={onTabKeyDown}
            className={`h-10 rounded-full text-sm font-semibold transition-colors ${
              selected
                ? 'bg-ink-900 text-white shadow-sm'
                : inProgress
                  ? 'cursor-not-allowed text-slate-400'
                  : 'text-slate-600 hover:text-ink-900'
            }`}
          >
            {label}
          </button>
        );
      })}
    </div>
  );
}

/** The terms notice and the accepted payment methods, under the widget on the home page. */
function TermsAndMethods() {
  return (
    <div className="mt-5 space-y-4">
      <p className="text-center text-xs leading-5 text-slate-500">
        By continuing you agree to our{' '}
        <Link
          to={paths.termsOfUse}
          className="font-medium text-ink-900 underline underline-offset-2 hover:text-brand-700"
        >
          Terms of Use
        </Link>
        .
      </p>
      <div className="border-t border-slate-100 pt-4">
        <PaymentMethods className="justify-center" />
      </div>
    </div>
  );
}

function WidgetSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="animate-pulse space-y-4">
      <div className="h-4 w-20 rounded bg-slate-200" />
      <div className="h-14 rounded-2xl bg-slate-100" />
      <div className="h-12 rounded-xl bg-slate-100" />
      <div className="h-4 w-24 rounded bg-slate-200" />
      <div className="h-14 rounded-2xl bg-slate-100" />
      <div className="h-13 rounded-full bg-slate-200" />
    </div>
  );
}
