import { test, expect, type Locator, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { gotoInteractive, waitForInteractive } from './support/interactive';

// The public site (header, footer, drawer, marketing and legal pages) at a phone and a desktop width.
// Full-page screenshots land in e2e/.screens/ (git-ignored) for a human to look at.
const screensDir = fileURLToPath(new URL('./.screens/', import.meta.url));

const viewports = [
  { label: 'mobile', width: 390, height: 844 },
  { label: 'desktop', width: 1280, height: 800 },
] as const;

const legalClauses: Record<string, { title: string; clauses: string[] }> = {
  '/terms-of-use': {
    title: 'Terms of Use',
    clauses: [
      'Acceptance of Terms',
      'Use License',
      'Accounts',
      'Prohibited Activities',
      'Limitation of Liability',
      'Governing Law',
      'Changes to These Terms',
    ],
  },
  '/privacy-policy': {
    title: 'Privacy Policy',
    clauses: [
      'Information We Collect',
      'How We Use Your Information',
      'Sharing of Information',
      'Data Security',
      'Data Retention',
      'Your Choices',
      'Updates to This Policy',
    ],
  },
  '/cookie-policy': {
    title: 'Cookie Policy',
    clauses: [
      'Session and Persistent Cookies',
      'Third-Party Cookies',
      'Managing Cookies',
      'Updates to This Policy',
    ],
  },
  '/refund-policy': {
    title: 'Refund Policy',
    clauses: [
      'No Refunds',
      'Selling Your Bitcoin',
      'Limitation of Responsibility',
      'Contact Us',
      'Updates to This Policy',
    ],
  },
};

const publicRoutes = [
  { path: '/', name: 'home' },
  { path: '/about-us', name: 'about-us' },
  { path: '/terms-of-use', name: 'terms-of-use' },
  { path: '/privacy-policy', name: 'privacy-policy' },
  { path: '/cookie-policy', name: 'cookie-policy' },
  { path: '/refund-policy', name: 'refund-policy' },
  { path: '/login', name: 'login' },
  { path: '/register', name: 'register' },
];

/** The navigation every visitor gets, in the desktop header or in the mobile drawer. */
async function expectSiteNavigation(scope: Locator) {
  await expect(scope.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
  await expect(scope.getByRole('link', { name: 'About Us', exact: true })).toHaveAttribute(
    'href',
    '/about-us',
  );
  const blogs = scope.getByRole('link', { name: /^Blogs/ });
  await expect(blogs).toHaveAttribute('href', /^https?:\/\//);
  await expect(blogs).toHaveAttribute('target', '_blank');
  await expect(blogs).toHaveAttribute('rel', /noopener/);
  await expect(scope.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute('href', '/login');
  await expect(scope.getByRole('link', { name: 'Register', exact: true })).toHaveAttribute(
    'href',
    '/register',
  );
}

async function expectFooter(page: Page) {
  const footer = page.getByTestId('site-footer');
  await expect(footer).toBeVisible();
  await expect(footer.getByRole('link', { name: 'About Us', exact: true })).toHaveAttribute(
    'href',
    '/about-us',
  );
  await expect(footer.getByRole('link', { name: /^Blogs/ })).toHaveAttribute('target', '_blank');
  await expect(footer.getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute(
    'href',
    /^mailto:.+@.+/,
  );
  await expect(footer.getByRole('link', { name: 'Terms of use' })).toHaveAttribute('href', '/terms-of-use');
  await expect(footer.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
    'href',
    '/privacy-policy',
  );
  await expect(footer.getByRole('link', { name: 'Cookie policy' })).toHaveAttribute('href', '/cookie-policy');
  await expect(footer.getByRole('link', { name: 'Refund policy' })).toHaveAttribute('href', '/refund-policy');
  for (const network of ['X', 'Facebook', 'LinkedIn']) {
    await expect(footer.getByRole('link', { name: `OffZero on ${network}` })).toHaveAttribute(
      'href',
      /^https?:\/\//,
    );
  }
  await expect(footer.getByText('© 2024 OffZero. All rights reserved.')).toBeVisible();
  await expect(footer.getByText('The safest and easiest way to buy Bitcoin. Get Off Zero!')).toBeVisible();
}

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'page is wider than the viewport').toBeLessThanOrEqual(0);
}

for (const viewport of viewports) {
  test.describe(`public site at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const route of publicRoutes) {
      test(`${route.path} has the header, footer and demo banner`, async ({ page }) => {
        // Nothing in the browser console on a first load: no warning, no error.
        const consoleMessages: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'warning' || message.type() === 'error')
            consoleMessages.push(`${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => consoleMessages.push(`pageerror: ${error.message}`));
        await page.goto(route.path);
        await expect(page.locator('h1').first()).toBeVisible();
        // The menu toggle and the forms answer once the page is interactive, not while it is only painted.
        await waitForInteractive(page);

        const header = page.getByTestId('site-header');
        await expect(header).toBeVisible();
        await expect(header.getByRole('link', { name: 'OffZero home' })).toHaveAttribute('href', '/');
        await expect(page.getByText('Demo mode — no real money moves')).toBeVisible();

        if (viewport.width < 768) {
          const toggle = page.getByTestId('menu-toggle');
          await expect(toggle).toBeVisible();
          await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
          await toggle.click();
          const drawer = page.getByTestId('mobile-drawer');
          await expect(drawer).toBeVisible();
          await expectSiteNavigation(drawer);
          await toggle.click();
          await expect(drawer).toBeHidden();
        } else {
          await expect(page.getByTestId('menu-toggle')).toBeHidden();
          await expectSiteNavigation(header);
        }

        await expectFooter(page);

        const legal = legalClauses[route.path];
        if (legal) {
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.title);
          await expect(page.getByText('Last updated: November 1, 2026')).toBeVisible();
          await expect(page.locator('main h2')).toHaveText(
            legal.clauses.map((clause, index) => `${index + 1}. ${clause}`),
          );
        }

        await expectNoHorizontalScroll(page);
        await page.screenshot({ path: `${screensDir}${route.name}-${viewport.width}.png`, fullPage: true });
        expect(consoleMessages).toEqual([]);
      });
    }

    test('an unknown address shows the not-found page', async ({ page }) => {
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(page.getByTestId('site-header')).toBeVisible();
      await expect(page.getByTestId('site-footer')).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Back to home' })).toHaveAttribute(
        'href',
        '/',
      );
      await expectNoHorizontalScroll(page);
      await page.screenshot({ path: `${screensDir}not-found-${viewport.width}.png`, fullPage: true });
    });
  });
}

test.describe('mobile drawer', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opens and closes with the toggle, the close button and Escape, and closes on navigation', async ({
    page,
  }) => {
    await gotoInteractive(page, '/');
    const toggle = page.getByTestId('menu-toggle');
    const drawer = page.getByTestId('mobile-drawer');

    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAttribute('aria-controls', 'mobile-drawer');
    await expect(drawer).toBeHidden();

    await toggle.click();
    await expect(drawer).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(drawer).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();

    await toggle.click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    await toggle.click();
    await drawer.getByRole('link', { name: 'About Us', exact: true }).click();
    await expect(page).toHaveURL(/\/about-us$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Our Mission' })).toBeVisible();
    await expect(drawer).toBeHidden();

    await toggle.click();
    await drawer.getByRole('link', { name: 'Register', exact: true }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(drawer).toBeHidden();
  });
});

test.describe('home page', () => {
  test('the trade widget switches between Buy and Sell and Continue leads to the login page', async ({
    page,
  }) => {
    await gotoInteractive(page, '/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Buy Bitcoin');
    await expect(page.getByRole('img', { name: 'Accepted payment methods' })).toBeVisible();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Terms of Use', exact: true }),
    ).toHaveAttribute('href', '/terms-of-use');
    await expect(
      page
        .getByRole('main')
        .getByRole('link', { name: /Create Account/ })
        .first(),
    ).toHaveAttribute('href', '/register');

    const sell = page.getByRole('tab', { name: 'Sell' });
    await sell.click();
    await expect(sell).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Buy' })).toHaveAttribute('aria-selected', 'false');

    // Visitors get live quotes too; submitting one leads to the login page.
    const widget = page.getByTestId('trade-widget');
    await widget.getByLabel('You Pay').fill('0.01');
    await expect(widget.getByLabel('You Receive')).toHaveValue(/^\d+\.\d{2}$/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('API documentation', () => {
  // A page for developers, not a customer screen: one width is enough.
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the served app describes its API, and the documentation page lists its operations', async ({
    page,
    request,
  }) => {
    const description = await request.get('/api/openapi.json');
    expect(description.status()).toBe(200);
    expect((await description.json()) as { openapi: string }).toMatchObject({ openapi: '3.1.0' });

    await page.goto('/api/docs/');
    await expect(page.getByText('OffZero API').first()).toBeVisible();
    await expect(page.locator('[data-path="/api/price"]').first()).toBeVisible();
  });
});
