import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';
import { W9Step } from '../../features/tax/components/w9-step';

/** The home page's trade widget with its price feed. */
export function HomeTradeWidget() {
  return (
    <PriceProvider>
      <TradeWidget taxDetailsForm={W9Step} />
    </PriceProvider>
  );
}
