import type { ReactNode } from 'react';
import type { ApiQuery } from '../api/use-api.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { PageHeader } from './PageHeader.tsx';

/** The line that says something is on its way. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="loading" role="status">
      {children}
    </p>
  );
}

/** A query until its answer is there: "Loading …" while it runs, its error with Try again. */
export function QueryState({
  query,
  loading,
}: {
  query: Pick<ApiQuery<unknown>, 'data' | 'loading' | 'error' | 'reload'>;
  loading: string;
}) {
  return (
    <>
      {query.loading && !query.data && <Loading>{loading}</Loading>}
      <ErrorNotice error={query.error} onRetry={query.reload} />
    </>
  );
}

/** A detail page before its item has loaded: its title and back link, then the query's state. */
export function PageLoading({
  title,
  back,
  query,
  loading,
}: {
  title: string;
  back: ReactNode;
  query: Pick<ApiQuery<unknown>, 'data' | 'loading' | 'error' | 'reload'>;
  loading: string;
}) {
  return (
    <>
      <PageHeader title={title} back={back} />
      <QueryState query={query} loading={loading} />
    </>
  );
}
