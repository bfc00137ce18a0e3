import type { Page } from '@playwright/test';

/**
 * Public pages arrive prerendered: they are on screen before the app has hydrated them, and a click in
 * that moment does nothing. Wait for the mark the app sets once the page answers input. (Not after
 * `page.clock.install()`: the faked `performance` keeps no marks.)
 */
export async function waitForInteractive(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('offzero:interactive').length > 0);
}
