import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice.tsx';
import { PageHeader } from './PageHeader.tsx';

/** What a query's loading line and error need of it. */
type QueryLike = Pick<UseQueryResult<unknown>, 'data' | 'error' | 'isFetching' | 'refetch'>;

/** The line that says something is on its way. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="loading" role="status">
      {children}
    </p>
  );
}

/** A query until its answer is there: "Loading …" while it runs, its error with Try again. */
export function QueryState({ query, loading }: { query: QueryLike; loading: string }) {
  return (
    <>
      {query.isFetching && !query.data && <Loading>{loading}</Loading>}
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
    </>
  );
}

/** A detail page before its item has loaded: its title and back link, then the query's state. */
export function PageLoading({ title, back, query, loading }: { title: string; back: ReactNode; query: QueryLike; loading: string }) {
  return (
    <>
      <PageHeader title={title} back={back} />
      <QueryState query={query} loading={loading} />
    </>
  );
}
