import { QueryClient } from '@tanstack/react-query';
import { ApiFailure } from './client.ts';

/**
 * Server state of every page. Live events keep the lists current (live/live-queries.ts), so
 * answers stay fresh until then; a refused request (4xx) is not tried again.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => failures < 2 && !(error instanceof ApiFailure && error.status >= 400 && error.status < 500),
    },
  },
});
