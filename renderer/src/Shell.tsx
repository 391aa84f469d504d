import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSignedIn, useSessionStore } from './auth/session-store.ts';
import { DiskFullBanner } from './components/DiskFullBanner.tsx';
import { EmptyState } from './components/EmptyState.tsx';
import { ErrorNotice } from './components/ErrorNotice.tsx';
import { metaQuery } from './api/meta.ts';
import { PageHeader } from './components/PageHeader.tsx';
import { useLiveStore } from './live/live-store.ts';
import { activityQuery } from './live/use-activity.ts';
import { DEMO_HOME_PATH, HOME_PATH, NAV, ROUTES } from './routes.tsx';
import { Link, matchPath, navigate, useLocation } from './router.tsx';

const liveLabels = { off: 'Live updates off', connecting: 'Connecting…', open: 'Live updates on', reconnecting: 'Reconnecting…' } as const;

function LiveIndicator() {
  const status = useLiveStore((s) => s.status);
  return (
    <div className={`live live-${status}`} role="status" aria-label="Live updates">
      <span className="live-dot" aria-hidden="true" />
      {liveLabels[status]}
    </div>
  );
}

function NotFoundPage({ path }: { path: string }) {
  return (
    <>
      <PageHeader title="Page not found" />
      <section className="panel">
        <EmptyState
          title="There is no page here"
          action={
            <Link to={HOME_PATH} className="button">
              Go to the task list
            </Link>
          }
        >
          <p>
            Nothing lives at <code>{path}</code>. Pick a page from the navigation.
          </p>
        </EmptyState>
      </section>
    </>
  );
}

/** The signed-in app: side navigation, who is signed in, and the current page. */
export function Shell() {
  const { session } = useSignedIn();
  const signOut = useSessionStore((s) => s.signOut);
  const path = useLocation((s) => s.path);
  const main = useRef<HTMLElement>(null);
  // The server's facts (import kinds, limits) that pages build their forms from.
  const meta = useQuery(metaQuery);

  useEffect(() => {
    const live = useLiveStore.getState();
    live.start();
    return () => live.stop();
  }, []);

  // The first screen: the live events in demo mode, the tasks otherwise.
  const atHome = path === '/' || path === '';
  const home = useQuery({ ...activityQuery(session.organization_uuid), enabled: atHome });
  const demo = home.data?.demo != null;
  useEffect(() => {
    if (atHome && !home.isPending) navigate(demo ? DEMO_HOME_PATH : HOME_PATH, { replace: true });
  }, [atHome, home.isPending, demo]);

  let page = null;
  let section = '';
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (params) {
      page = route.render(params);
      section = route.section;
      break;
    }
  }

  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <aside className="sidebar">
        <div className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>QR Sandbox</span>
        </div>
        <nav aria-label="Main">
          <ul className="nav">
            {NAV.map((entry) => (
              <li key={entry.section}>
                <Link to={entry.path} className="nav-link" aria-current={entry.section === section ? 'page' : undefined}>
                  {entry.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-footer">
          <LiveIndicator />
          <div className="whoami">
            <span className="whoami-org" title={session.organization_uuid}>
              {session.organization_name}
            </span>
            <span className="whoami-key">
              {session.name} · {session.role}
            </span>
          </div>
          <button type="button" className="button button-small sign-out" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      <main id="main" className="main" ref={main} tabIndex={-1}>
        <DiskFullBanner />
        {meta.isError ? (
          <ErrorNotice error={meta.error} onRetry={() => void meta.refetch()} />
        ) : !meta.data ? (
          <p className="muted">Loading…</p>
        ) : (
          (page ?? (path === '/' ? null : <NotFoundPage path={path} />))
        )}
      </main>
    </div>
  );
}
