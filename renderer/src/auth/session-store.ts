import { create } from 'zustand';
import { answer, api } from '../api/api-client.ts';
import { ApiFailure, type Credential, onUnauthorized, setClientCredential } from '../api/client.ts';
import { queryClient } from '../api/query-client.ts';
import { describeError } from '../api/describe-error.ts';
import type { Session } from '../api/types.ts';
import { desktopConnection } from '../desktop/bridge.ts';
import { loadStoredCredential, parseCredential, storeCredential, takeCredentialFromAddress, watchStoredCredential } from './credential.ts';

export type SessionState =
  | { status: 'starting' }
  | { status: 'signed-out'; notice: string | null }
  | { status: 'signed-in'; credential: Credential; session: Session };

interface SessionStore {
  state: SessionState;
  /** Signs in from the #key= link, the desktop shell, or the credential kept for this tab. Runs once. */
  start(): Promise<void>;
  /** Returns a plain-words problem, or null when signed in. */
  signIn(text: string): Promise<string | null>;
  signOut(notice?: string): void;
}

const sameCredential = (a: Credential | null, b: Credential | null) => a?.apiKey === b?.apiKey && a?.apiSecret === b?.apiSecret;

let starting: Promise<void> | null = null;

export const useSessionStore = create<SessionStore>()((set, get) => {
  /** GET /api/session with the credential: it works, and says which organization it belongs to. */
  const attempt = async (credential: Credential): Promise<string | null> => {
    try {
      setClientCredential(credential);
      // Nothing read with another credential is shown with this one.
      queryClient.clear();
      const session = await answer(api.GET('/api/session'));
      storeCredential(credential);
      set({ state: { status: 'signed-in', credential, session } });
      return null;
    } catch (error) {
      setClientCredential(null);
      // Only a kept credential that no longer works is forgotten (everywhere); a mistyped one leaves other tabs alone.
      if (sameCredential(loadStoredCredential(), credential)) storeCredential(null);
      const plain = describeError(error);
      const message =
        error instanceof ApiFailure && error.status === 401
          ? 'That API key and secret were not accepted. Check that you copied both parts, and that the key has not been revoked.'
          : `${plain.title}: ${plain.message}`;
      set({ state: { status: 'signed-out', notice: message } });
      return message;
    }
  };

  const startOnce = async (): Promise<void> => {
    const hadLink = window.location.hash.startsWith('#key=');
    const credential = takeCredentialFromAddress() ?? (await desktopConnection()) ?? loadStoredCredential();
    if (!credential) {
      const notice = hadLink
        ? 'The sign-in link is incomplete: it needs #key=<api_key>:<api_secret>. Paste the key and secret below.'
        : null;
      set({ state: { status: 'signed-out', notice } });
      return;
    }
    await attempt(credential);
  };

  return {
    state: { status: 'starting' },

    start() {
      starting ??= startOnce();
      return starting;
    },

    async signIn(text) {
      const credential = parseCredential(text);
      if (!credential) {
        return 'Paste the API key and secret joined by a colon, like qrs_0123abcd…:AbC…, or the whole sign-in link that npm run serve prints.';
      }
      return attempt(credential);
    },

    signOut(notice) {
      setClientCredential(null);
      storeCredential(null);
      if (get().state.status !== 'signed-out' || notice) set({ state: { status: 'signed-out', notice: notice ?? null } });
    },
  };
});

// Another tab signed in (this one follows, unless it already uses that key) or out (this one too).
watchStoredCredential((credential) => {
  const { state, signOut } = useSessionStore.getState();
  if (!credential) {
    if (state.status === 'signed-in') signOut('You signed out in another tab or window.');
    return;
  }
  if (state.status === 'starting' || (state.status === 'signed-in' && sameCredential(state.credential, credential))) return;
  void useSessionStore.getState().signIn(`${credential.apiKey}:${credential.apiSecret}`);
});

// A sign-in link pasted into the address bar of an open tab changes only the hash: the page does not
// load again, so the link is read here, its secret taken out of the address at once, and used.
window.addEventListener('hashchange', () => {
  if (!window.location.hash.startsWith('#key=')) return;
  const credential = takeCredentialFromAddress();
  const { state, signIn } = useSessionStore.getState();
  if (state.status === 'starting') return;
  if (!credential) {
    if (state.status !== 'signed-out') return;
    useSessionStore.setState({
      state: {
        status: 'signed-out',
        notice: 'The sign-in link is incomplete: it needs #key=<api_key>:<api_secret>. Paste the key and secret below.',
      },
    });
    return;
  }
  if (state.status === 'signed-in' && sameCredential(state.credential, credential)) return;
  void signIn(`${credential.apiKey}:${credential.apiSecret}`);
});

onUnauthorized((failure) => {
  const { state, signOut } = useSessionStore.getState();
  if (state.status === 'signed-in') {
    signOut(`You were signed out: ${failure.message} Sign in again with a valid API key and secret.`);
  }
});

/** The signed-in session; only for components rendered inside the signed-in app. */
export function useSignedIn(): { credential: Credential; session: Session } {
  const state = useSessionStore((s) => s.state);
  if (state.status !== 'signed-in') throw new Error('useSignedIn outside the signed-in app');
  return state;
}
