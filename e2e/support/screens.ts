import { expect, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
const screensDir = fileURLToPath(new URL('../.screens/', import.meta.url));

/**
 * Full-page screenshots at desktop and phone width into e2e/.screens/<prefix>-<name>-<width>.png; fails
 * if the page is wider than the screen at either. Leaves the page at desktop width.
 */
export async function snapBothWidths(page: Page, prefix: string, name: string): Promise<void> {
  for (const [label, size] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.evaluate(() => document.fonts.ready);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${label}px is wider than the viewport`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screensDir}${prefix}-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}
