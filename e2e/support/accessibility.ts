import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Fails on anything axe-core finds on the page as it is now (contrast, names, labels, landmarks…).
 * Logotypes keep their brand colours: WCAG 1.4.3 exempts them from the contrast minimum.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).exclude('[data-logotype]').analyze();
  const found = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} ${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  );
  expect(found, `${what}: axe-core findings`).toEqual([]);
}
