import { queryOptions, useQuery } from '@tanstack/react-query';
import { answer, api } from './api-client.ts';

/** The server's import kinds, limits and appointment fields: fixed while it runs. */
export const metaQuery = queryOptions({
  queryKey: ['meta'],
  queryFn: ({ signal }) => answer(api.GET('/api/meta', { signal })),
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAppMeta = () => useQuery(metaQuery).data;
