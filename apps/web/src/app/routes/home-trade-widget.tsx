import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';

// The W-9 form is needed only by a seller without one on file: it loads when the sell flow shows it.
const W9StepForm = lazy(async () => ({
  default: (await import('../../features/tax/components/w9-step-form')).W9StepForm,
}));

/** The home page's trade widget with its price feed (spec section 2). */
export function HomeTradeWidget() {
  return (
    <PriceProvider>
      <TradeWidget taxDetailsForm={W9Step} />
    </PriceProvider>
  );
}

/** The tax feature's W-9 form, as the sell flow's tax details step. */
function W9Step({ onSaved }: { onSaved: () => void }) {
  return (
    <Suspense
      fallback={
        <div role="status" aria-label="Loading" className="flex justify-center py-10 text-orange-500">
          <Spinner className="size-6" />
        </div>
      }
    >
      <W9StepForm onSaved={onSaved} />
    </Suspense>
  );
}
