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

export function loadStoredCredential(): Credential | null {
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEY);
    return stored ? parseCredential(stored) : null;
  } catch {
    return null;
  }
}

export function storeCredential(credential: Credential | null): void {
  try {
    if (credential) window.sessionStorage.setItem(STORAGE_KEY, `${credential.apiKey}:${credential.apiSecret}`);
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: the credential lives for this page only.
  }
}
