import { HomePage } from '../../features/marketing/home-page';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';
import { W9StepForm } from '../../features/tax/components/w9-step-form';

/** The home page with the trade widget in its hero (spec section 2). */
export default function HomeRoute() {
  return (
    <HomePage
      tradeWidget={
        <PriceProvider>
          <TradeWidget taxDetailsForm={W9Step} />
        </PriceProvider>
      }
    />
  );
}

/** The tax feature's W-9 form, as the sell flow's tax details step. */
function W9Step({ onSaved }: { onSaved: () => void }) {
  return <W9StepForm onSaved={onSaved} />;
}
