import { QueryClient } from '@tanstack/react-query';

/**
 * Server state of every page. Live events update the cached lists (live/live-queries.ts); a page
 * shown again shows what was cached at once and loads it again. A failure shows at once, with
 * Try again, rather than after silent retries.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: false },
  },
});
