import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/principal.ts';

export const LIVE_TOKEN_TTL_MS = 60_000;

/**
 * EventSource cannot send an Authorization header, so a client first trades its credential for
 * a short-lived token and opens /api/live?token=... with it. Tokens live in memory only: a
 * restart simply makes clients fetch a new one.
 */
export class LiveTokens {
  private readonly tokens = new Map<string, { principal: Principal; expires: number }>();

  issue(principal: Principal, now = Date.now()): { token: string; expires_on: string } {
    this.sweep(now);
    const token = randomBytes(24).toString('base64url');
    const expires = now + LIVE_TOKEN_TTL_MS;
    this.tokens.set(token, { principal, expires });
    return { token, expires_on: new Date(expires).toISOString() };
  }

  resolve(token: string, now = Date.now()): Principal | null {
    const entry = this.tokens.get(token);
    if (!entry || entry.expires < now) return null;
    return entry.principal;
  }

  private sweep(now: number): void {
    for (const [token, entry] of this.tokens) if (entry.expires < now) this.tokens.delete(token);
  }
}
