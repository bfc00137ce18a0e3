import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAppConfig } from '../../lib/app-config';
import { ConnectionNotice } from '../../components/ui/connection-notice';
import { ToastArea } from '../../components/ui/toast-area';
import { markInteractive } from '../../lib/interactive';

/**
 * The outermost shell of every page: the notice of a lost connection, the demo notice, the page itself
 * and the toast area.
 */
export function RootLayout() {
  const { mode } = useAppConfig();
  // The first page is on screen and answers input (hydrated, or rendered with its route's code): the
  // moment `npm run bench:web` counts scripts up to.
  useEffect(markInteractive, []);
  return (
    <div className="flex min-h-dvh flex-col">
      <ScrollToTop />
      <ConnectionNotice />
      {mode === 'demo' && <DemoBanner />}
      <div className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <ToastArea />
    </div>
  );
}

/** A labelled region: every part of a page sits in a landmark, so no reader skips it by accident. */
function DemoBanner() {
  return (
    <section
      aria-label="Demo mode"
      data-testid="demo-banner"
      className="bg-brand-500 px-4 py-1.5 text-center text-sm font-semibold text-ink-900"
    >
      Demo mode — no real money moves
    </section>
  );
}

/** A new page starts at its top; a link to an anchor (#section) scrolls to that anchor instead. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useLayoutEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    // 'instant' overrides the smooth scrolling the stylesheet sets for in-page anchors.
    else window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, hash]);
  return null;
}
