import { expect, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
export const TABLET = { width: 1024, height: 768 };
const screensDir = fileURLToPath(new URL('../.screens/', import.meta.url));

type Size = { width: number; height: number };

/** Where a screenshot named `file` (with its extension) is written: e2e/.screens/. */
export function screenPath(file: string): string {
  return `${screensDir}${file}`;
}

export interface SnapOptions {
  /** The widths to take, each with the label that ends its file name (default 1280 and 390 px). */
  sizes?: readonly (readonly [label: string, size: Size])[];
  /**
   * `full-page` (default) stitches the whole page; `tall-window` grows the window to the page's height
   * first, so bars stuck to the bottom of the window are drawn where the person sees them.
   */
  capture?: 'full-page' | 'tall-window';
  /** The window size the page is left at (default: desktop). */
  leaveAt?: Size;
}

/**
 * Screenshots of the current screen at each width into e2e/.screens/<prefix>-<name>-<label>.png, for a
 * person to look at; fails if the page is wider than the screen at any of them. With a dialog open only
 * the window is taken, as the person sees it.
 */
export async function snapAtWidths(
  page: Page,
  prefix: string,
  name: string,
  options: SnapOptions = {},
): Promise<void> {
  const sizes = options.sizes ?? [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ];
  const dialogOpen = (await page.getByRole('dialog').count()) > 0;
  for (const [label, size] of sizes) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.evaluate(() => document.fonts.ready);
    await expectNoSidewaysScroll(page, `${name} at ${label}px`);
    const tallWindow = options.capture === 'tall-window' && !dialogOpen;
    if (tallWindow) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    }
    await page.screenshot({
      path: screenPath(`${prefix}-${name}-${label}.png`),
      fullPage: !dialogOpen && !tallWindow,
    });
  }
  await page.setViewportSize(options.leaveAt ?? DESKTOP);
}

/** One full-page screenshot at the window's current size into e2e/.screens/<prefix>-<name>.png. */
export async function snapAsIs(page: Page, prefix: string, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await expectNoSidewaysScroll(page, name);
  await page.screenshot({ path: screenPath(`${prefix}-${name}.png`), fullPage: true });
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} is wider than the viewport`).toBeLessThanOrEqual(0);
}
