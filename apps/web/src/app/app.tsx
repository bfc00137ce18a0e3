import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { prepareApiClient } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { RealtimeProvider } from '../lib/realtime';
import { AppConfigProvider } from '../lib/app-config';

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
  // the product specification, "App start": a visitor gets a cross-site protection token before their first form.
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
