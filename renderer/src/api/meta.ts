import { queryOptions, useQuery } from '@tanstack/react-query';
import { answer, api } from './api-client.ts';
import { rememberImportKinds } from './import-kinds.ts';
import { rememberEvents } from './webhook-events.ts';

/** The server's import kinds, limits, appointment fields and webhook events: fixed while it runs (kinds and events also kept in import-kinds.ts, webhook-events.ts). */
export const metaQuery = queryOptions({
  queryKey: ['meta'],
  queryFn: async ({ signal }) => {
    const meta = await answer(api.GET('/api/meta', { signal }));
    rememberImportKinds(meta.kinds);
    rememberEvents(meta.events);
    return meta;
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAppMeta = () => useQuery(metaQuery).data;
