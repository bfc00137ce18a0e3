import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { SCREEN_FRESH_MS } from './screen-freshness';

/**
 * The app's query client. `retries: false` is for tests, which want one answer per call; the app
 * retries an outage once.
 */
export function createQueryClient({ retries = true }: { retries?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A refused request (4xx) gives the same answer when repeated; only outages are worth one retry.
        retry: retries
          ? (failures, error) =>
              !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1
          : false,
        refetchOnWindowFocus: false,
        staleTime: SCREEN_FRESH_MS,
        // Offline, a paused call would leave its screen waiting with no word: it fails at once and
        // says the connection is lost instead (reads run again on reconnecting).
        networkMode: 'always',
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}
