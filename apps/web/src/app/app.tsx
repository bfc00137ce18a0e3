import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { ApiError, prepareApiClient } from '../lib/api-client';
import { RealtimeProvider } from '../lib/realtime';
import { AppConfigProvider } from '../lib/app-config';
import { SCREEN_FRESH_MS } from '../lib/screen-freshness';

const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        // A refused request (4xx) gives the same answer when repeated; only outages are worth one retry.
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
        refetchOnWindowFocus: false,
        staleTime: SCREEN_FRESH_MS,
      },
    },
  });

/** The browser app: the providers around the router made for this page load (main.tsx). */
export function App({ config, router }: { config: PublicAppConfig; router: DataRouter }) {
  return (
    <AppProviders config={config}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

/**
 * Every provider a page needs, shared by the browser (around the browser router) and the build's
 * prerendering of public pages (around a static router), so both render the same markup.
 */
export function AppProviders({ config, children }: { config: PublicAppConfig; children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // Spec section 4, "App start": a visitor gets a cross-site protection token before their first form.
  useEffect(() => {
    void prepareApiClient();
  }, []);

  return (
    <AppConfigProvider value={config}>
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider>{children}</RealtimeProvider>
      </QueryClientProvider>
    </AppConfigProvider>
  );
}
