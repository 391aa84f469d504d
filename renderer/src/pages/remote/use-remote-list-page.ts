import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import type { ApiRequest } from '../../api/request.ts';
import type { Page } from '../../api/types.ts';
import type { ListPage } from '../../api/use-list-page.ts';
import { positiveInt, useSearchParams } from '../../router.tsx';

/**
 * A list page of a remote service, through the proxy (GET /api/remote/{name}/{path}): the proxy
 * passes the remote's answer on as it is, so its shape is the page's to know, not the schema's.
 */
export function useRemoteListPage<T>(
  makeRequest: (paging: { page: number; per_page: number }) => ApiRequest | null,
  defaultPerPage = 10,
): ListPage<T> {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const request = makeRequest({ page, per_page: positiveInt(params.get('per_page'), defaultPerPage) });
  const list = useQuery({
    queryKey: ['remote', request],
    queryFn: ({ signal }) => call<Page<T>>(request as ApiRequest, { signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  return { list, request, page, defaultPerPage, params, setParams };
}
