import type { Page } from '@playwright/test';

/**
 * Public pages arrive prerendered: they are on screen before the app has hydrated them, and a click in
 * that moment does nothing. Wait for the mark the app sets once the page answers input, then for the
 * parts it loads only after that moment (apps/web/src/lib/deferred-component.tsx: the home page's trade
 * widget, the login and registration forms) to have mounted with their code. (Not after
 * `page.clock.install()`: the faked `performance` keeps no marks.)
 */
export async function waitForInteractive(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const count = (name: string) => performance.getEntriesByName(name).length;
    return (
      count('offzero:interactive') > 0 && count('offzero:deferred-ready') >= count('offzero:deferred-loading')
    );
  });
}
