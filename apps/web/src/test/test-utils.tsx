import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { AppConfigProvider } from '../lib/app-config';
import { NETWORK_MODE } from '../lib/query-client';

export const testConfig: PublicAppConfig = {
  mode: 'demo',
  supportEmail: 'support@offzero.test',
  blogUrl: 'https://blog.offzero.test',
  social: {
    x: 'https://x.test/offzero',
    facebook: 'https://facebook.test/offzero',
    linkedin: 'https://linkedin.test/offzero',
  },
  postalAddress: '1 Test St, Cheyenne, WY',
  googleClientId: null,
  paypalClientId: null,
  bitcoinNetwork: 'testnet',
  explorerUrl: 'https://mempool.space/testnet',
};

/** Renders with what every screen expects around it: app config, a query client and a router. */
export function renderWithProviders(
  ui: ReactElement,
  { config = testConfig, route = '/' }: { config?: PublicAppConfig; route?: string } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false, networkMode: NETWORK_MODE },
      mutations: { retry: false, networkMode: NETWORK_MODE },
    },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppConfigProvider value={config}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </AppConfigProvider>
  );
  return { queryClient, ...render(ui, { wrapper }) };
}

/** A JSON answer as `fetch` would return it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** An unsigned token with the claims the client reads (the client never checks signatures). */
export function fakeSessionToken(userId = 'user-1', expiresInSeconds = 3600): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ _id: userId, exp })}.signature`;
}

/** A new customer's settings as the server answers them: nothing saved, e-mail notices on, SMS off. */
export const newCustomerSettings: UserSettings = {
  bankAccount: null,
  walletAddress: null,
  zelleEmail: null,
  referralCode: null,
  receiveEmail: true,
  receiveSMS: false,
};
