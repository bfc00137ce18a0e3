import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { AppConfigProvider } from './app-config';
import { router } from './router';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 15_000 } },
});

export function App({ config }: { config: PublicAppConfig }) {
  return (
    <AppConfigProvider value={config}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppConfigProvider>
  );
}
