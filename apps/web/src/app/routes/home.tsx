import { HomePage } from '../../features/marketing/home-page';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';

/** The home page with the trade widget in its hero (spec section 2). */
export default function HomeRoute() {
  return (
    <HomePage
      tradeWidget={
        <PriceProvider>
          <TradeWidget />
        </PriceProvider>
      }
    />
  );
}
