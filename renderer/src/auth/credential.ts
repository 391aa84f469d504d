import type { Credential } from '../api/client.ts';

const STORAGE_KEY = 'qr-sandbox.credential';

/**
 * Reads "<api_key>:<api_secret>" as typed or pasted: also accepts the whole sign-in link
 * (…/#key=…) and a copied "Bearer …" header value. null when it is not that shape.
 */
export function parseCredential(text: string): Credential | null {
  let value = text.trim();
  const fragment = /#key=([^&\s]+)/.exec(value);
  if (fragment?.[1]) value = decodeURIComponent(fragment[1]);
  value = value.replace(/^(authorization:\s*)?bearer\s+/i, '');
  const match = /^([A-Za-z0-9_-]+):([A-Za-z0-9_\-+/=]+)$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  return { apiKey: match[1], apiSecret: match[2] };
}

/** Takes #key=… out of the address (so it is not left in history or screenshots) and returns it. */
export function takeCredentialFromAddress(): Credential | null {
  const hash = window.location.hash;
  if (!hash.startsWith('#key=')) return null;
  const credential = parseCredential(hash);
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return credential;
}

/**
 * The credential is kept for the browser (localStorage of this origin), not per tab: links opened
 * in a new tab or window, and reloads, stay signed in. Signing out removes it, and every other
 * tab hears that through the `storage` event (watchStoredCredential) and signs out too.
 */
export function loadStoredCredential(): Credential | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return stored ? parseCredential(stored) : null;
  } catch {
    return null;
  }
}

export function storeCredential(credential: Credential | null): void {
  try {
    if (credential) window.localStorage.setItem(STORAGE_KEY, `${credential.apiKey}:${credential.apiSecret}`);
    else window.localStorage.removeItem(STORAGE_KEY);
    // Tabs of older versions kept it per tab.
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: the credential lives for this page only.
  }
}

/** Calls back when another tab or window of this browser signs in (a credential) or out (null). */
export function watchStoredCredential(changed: (credential: Credential | null) => void): void {
  window.addEventListener('storage', (event) => {
    if (event.storageArea !== window.localStorage || (event.key !== STORAGE_KEY && event.key !== null)) return;
    changed(event.newValue && event.key === STORAGE_KEY ? parseCredential(event.newValue) : null);
  });
}
