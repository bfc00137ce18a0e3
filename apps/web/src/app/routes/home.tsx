import { HomePage } from '../../features/marketing/home-page';
import { Spinner } from '../../components/ui/spinner';
import { deferredComponent } from '../../lib/deferred-component';

// The trade widget (prices, quotes, the buy and sell flows) is most of the home page's code: it loads
// once the page is interactive and the widget is on screen, while its prerendered markup is already
// there. On a desktop it is beside the headline, so that is at once; on most phones it starts just
// below the first screen, so its start-up waits for the visitor to scroll to it.
const HomeTradeWidget = deferredComponent(
  async () => (await import('./home-trade-widget')).HomeTradeWidget,
  <div
    role="status"
    aria-label="Loading"
    className="flex min-h-96 w-full items-center justify-center rounded-3xl bg-white text-orange-500 shadow-2xl"
  >
    <Spinner className="size-6" />
  </div>,
  { untilVisible: true },
);

/** The home page with the trade widget in its hero. */
export default function HomeRoute() {
  return <HomePage tradeWidget={<HomeTradeWidget />} />;
}
