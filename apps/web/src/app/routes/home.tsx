import { HomePage } from '../../features/marketing/home-page';
import { Spinner } from '../../components/ui/spinner';
import { deferredComponent } from '../../lib/deferred-component';

// The trade widget (prices, quotes, the buy and sell flows) is most of the home page's code: it loads
// once the page is interactive, while its prerendered markup is already on screen.
const HomeTradeWidget = deferredComponent(
  async () => (await import('./home-trade-widget')).HomeTradeWidget,
  <div
    role="status"
    aria-label="Loading"
    className="flex min-h-96 w-full items-center justify-center rounded-3xl bg-white text-orange-500 shadow-2xl"
  >
    <Spinner className="size-6" />
  </div>,
);

/** The home page with the trade widget in its hero (spec section 2). */
export default function HomeRoute() {
  return <HomePage tradeWidget={<HomeTradeWidget />} />;
}
