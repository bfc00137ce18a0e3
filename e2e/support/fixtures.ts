import { test as base, type Page } from '@playwright/test';
import { adminConsole, apiClient, type Api } from './api';

/**
 * The browser tests' fixtures for back-office work: each test's own API client, and (when the test asks
 * for it) the console signed in as the demo admin at desktop width, opened on the work queue.
 */
export const test = base.extend<{ api: Api; admin: Page }>({
  api: async ({ baseURL }, use) => {
    const api = await apiClient(baseURL!);
    await use(api);
    await api.dispose();
  },
  admin: async ({ browser, api }, use) => {
    const admin = await adminConsole(browser, api, { width: 1280, height: 800 });
    await use(admin);
    await admin.context().close();
  },
});
