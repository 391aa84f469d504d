import { queryOptions, useQuery } from '@tanstack/react-query';
import { answer, api } from './api-client.ts';
import { rememberImportKinds } from './import-kinds.ts';

/** The server's import kinds, limits and appointment fields: fixed while it runs (the kinds also kept in import-kinds.ts). */
export const metaQuery = queryOptions({
  queryKey: ['meta'],
  queryFn: async ({ signal }) => {
    const meta = await answer(api.GET('/api/meta', { signal }));
    rememberImportKinds(meta.kinds);
    return meta;
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAppMeta = () => useQuery(metaQuery).data;
