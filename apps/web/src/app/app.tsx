import { useEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { ApiError, prepareApiClient } from '../lib/api-client';
import { RealtimeProvider } from '../lib/realtime';
import { AppConfigProvider } from '../lib/app-config';
import { router } from './router';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused request (4xx) gives the same answer when repeated; only outages are worth one retry.
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
      refetchOnWindowFocus: false,
      staleTime: 15_000,
    },
  },
});

export function App({ config }: { config: PublicAppConfig }) {
  // Spec section 4, "App start": a visitor gets a cross-site protection token before their first form.
  useEffect(() => {
    void prepareApiClient();
  }, []);

  return (
    <AppConfigProvider value={config}>
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider>
          <RouterProvider router={router} />
        </RealtimeProvider>
      </QueryClientProvider>
    </AppConfigProvider>
  );
}
