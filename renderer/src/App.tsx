import { useEffect } from 'react';
import { SignInPage } from './auth/SignInPage.tsx';
import { useSessionStore } from './auth/session-store.ts';
import { useLiveQueries } from './live/live-queries.ts';
import { Shell } from './Shell.tsx';

export function App() {
  const state = useSessionStore((s) => s.state);
  useLiveQueries();
  useEffect(() => {
    void useSessionStore.getState().start();
  }, []);
  if (state.status === 'starting') {
    return (
      <div className="splash" role="status">
        Signing in…
      </div>
    );
  }
  if (state.status === 'signed-out') return <SignInPage notice={state.notice} />;
  return <Shell key={state.credential.apiKey} />;
}
