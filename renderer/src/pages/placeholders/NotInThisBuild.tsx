import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';

/**
 * The layout of a page whose API this server does not offer yet: its title, what it is for,
 * and a plain empty state. No made-up data.
 */
export function NotInThisBuild({ title, description, what, api, next }: { title: string; description: ReactNode; what: string; api: string[]; next: ReactNode }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <section className="panel">
        <EmptyState title={`${what} is not available on this server yet`}>
          <p>
            This version of QR Sandbox does not include {api.length > 1 ? 'the endpoints' : 'the endpoint'}{' '}
            {api.map((a, i) => (
              <span key={a}>
                {i > 0 && (i === api.length - 1 ? ' and ' : ', ')}
                <code>{a}</code>
              </span>
            ))}{' '}
            that this page works with.
          </p>
          <p>{next}</p>
        </EmptyState>
      </section>
    </>
  );
}
