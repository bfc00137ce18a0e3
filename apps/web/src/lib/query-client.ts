import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { SCREEN_FRESH_MS } from './screen-freshness';

/**
 * Offline, a paused call would leave its screen waiting with no word: every call is made at once and
 * fails, saying the connection is lost (reads run again on reconnecting).
 */
export const NETWORK_MODE = 'always';

/** The app's query client. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A refused request (4xx) gives the same answer when repeated; only outages are worth one retry.
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
        refetchOnWindowFocus: false,
        staleTime: SCREEN_FRESH_MS,
        networkMode: NETWORK_MODE,
      },
      mutations: { networkMode: NETWORK_MODE },
    },
  });
}
