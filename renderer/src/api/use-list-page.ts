import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { positiveInt, useSearchParams } from '../router.tsx';
import { type GetAnswer, type GetParams, type GetPath, getQuery, getRequest } from './get-query.ts';
import type { ApiRequest } from './request.ts';

export type ParamChanges = Record<string, string | number | null | undefined>;

/** A list page's state: its page and per_page from the address, the request for them, and the answer. */
export interface ListPage<T> {
  list: UseQueryResult<{ items: T[]; total: number; pages: number; page: number; per_page: number }>;
  /** null while the page cannot ask yet (e.g. a remote list without an organization). */
  request: ApiRequest | null;
  page: number;
  defaultPerPage: number;
  params: URLSearchParams;
  setParams(changes: ParamChanges, options?: { replace?: boolean }): void;
}

type ListPath = { [P in GetPath]: GetAnswer<P> extends { items: unknown[]; total: number } ? P : never }[GetPath];
type ItemOf<P extends ListPath> = GetAnswer<P> extends { items: (infer T)[] } ? T : never;

/**
 * The page of the list at `path` that the address names (page, per_page; the defaults left out of
 * the address). `paramsFor` gives the GET's parameters for that page, or null to ask nothing yet.
 * The page shown stays while the next one loads.
 */
export function useListPage<P extends ListPath>(
  path: P,
  paramsFor: (paging: { page: number; per_page: number }) => GetParams<P> | null,
  defaultPerPage = 10,
): ListPage<ItemOf<P>> {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const getParams = paramsFor({ page, per_page: positiveInt(params.get('per_page'), defaultPerPage) });
  const list = useQuery({
    ...getQuery(path, getParams ?? ({} as GetParams<P>)),
    enabled: getParams !== null,
    placeholderData: keepPreviousData,
  }) as ListPage<ItemOf<P>>['list'];
  const request = getParams ? getRequest(path, getParams) : null;
  return { list, request, page, defaultPerPage, params, setParams };
}
