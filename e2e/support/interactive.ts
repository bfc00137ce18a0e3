import type { Page } from '@playwright/test';

/**
 * Public pages arrive prerendered: they are on screen before the app has hydrated them, and a click in
 * that moment does nothing. Wait for the mark the app sets once the page answers input, then for the
 * parts it loads only after that moment (apps/web/src/lib/deferred-component.tsx: the home page's trade
 * widget, the login and registration forms) to have mounted with their code. A part that loads only
 * once it is on screen (the trade widget below a phone's first screen) is scrolled into view first, as
 * a visitor would, and the page is scrolled back to the top. (Not after `page.clock.install()`: the
 * faked `performance` keeps no marks.)
 */
export async function waitForInteractive(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('offzero:interactive').length > 0);
  // The blocks still waiting now; one may open by itself meanwhile (on screen already), which is fine.
  const waiting = await page.locator('[data-deferred-until-visible=""]').elementHandles();
  for (const handle of waiting) {
    await handle.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (element) => (element as Element).getAttribute('data-deferred-until-visible') !== '',
      handle,
    );
  }
  if (waiting.length > 0) await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.waitForFunction(() => {
    const marks = (name: string) => performance.getEntriesByName(name).length;
    return marks('offzero:deferred-ready') >= marks('offzero:deferred-loading');
  });
}

/** Opens a page and waits until it answers input (waitForInteractive), as a visitor would before acting. */
export async function gotoInteractive(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForInteractive(page);
}
