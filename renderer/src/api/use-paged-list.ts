import type { ApiRequest } from './client.ts';
import type { Page } from './types.ts';
import { type ApiQuery, useApiQuery } from './use-api.ts';
import { positiveInt, useSearchParams } from '../router.tsx';

export type ParamChanges = Record<string, string | number | null | undefined>;

/** A list page's state: its page and per_page from the address, the request for them, and the answer. */
export interface PagedList<T> {
  list: ApiQuery<Page<T>>;
  /** null while the page cannot ask yet (e.g. a remote list without an organization). */
  request: ApiRequest | null;
  page: number;
  defaultPerPage: number;
  params: URLSearchParams;
  setParams(changes: ParamChanges, options?: { replace?: boolean }): void;
}

/**
 * Loads the page of a list that the address names (page, per_page; the defaults left out of the
 * address). `makeRequest` builds the GET for that page; it may return null to ask nothing yet.
 */
export function usePagedList<T>(
  makeRequest: (paging: { page: number; per_page: number }) => ApiRequest | null,
  defaultPerPage = 10,
): PagedList<T> {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const request = makeRequest({ page, per_page: positiveInt(params.get('per_page'), defaultPerPage) });
  const list = useApiQuery<Page<T>>(request);
  return { list, request, page, defaultPerPage, params, setParams };
}
