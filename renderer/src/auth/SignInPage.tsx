import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSessionStore } from './session-store.ts';

export function SignInPage({ notice }: { notice: string | null }) {
  const signIn = useSessionStore((s) => s.signIn);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · QR Sandbox';
    input.current?.focus();
  }, []);
  useEffect(() => setProblem(notice), [notice]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await signIn(text);
    setBusy(false);
    if (result) setProblem(result);
  };

  return (
    <main className="signin">
      <form className="signin-card" onSubmit={submit} noValidate aria-labelledby="signin-title">
        <div className="brand brand-large">
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span>QR Sandbox</span>
        </div>
        <h1 id="signin-title">Sign in</h1>
        <p className="muted">
          Use the sign-in link that <code>npm run serve</code> prints, or paste an API key and its secret. The first organization&apos;s key
          is in <code>credentials.json</code> in the data folder.
        </p>
        <label className="field">
          <span className="field-label">API key and secret</span>
          <input
            ref={input}
            name="credential"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="qrs_…:…"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'signin-problem' : 'signin-hint'}
          />
          <span id="signin-hint" className="field-hint">
            The key and the secret joined by a colon, <code>&lt;api_key&gt;:&lt;api_secret&gt;</code>. Kept in this browser (every tab)
            until you sign out.
          </span>
        </label>
        {problem && (
          <p id="signin-problem" className="notice notice-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy || text.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
