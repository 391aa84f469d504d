import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new public key id and its secret. The secret is shown once and stored only as a hash. */
export function generateCredential(): { apiKey: string; apiSecret: string } {
  return {
    apiKey: `qrs_${randomBytes(12).toString('hex')}`,
    apiSecret: randomBytes(32).toString('base64url'),
  };
}

// Secrets are 256 random bits, so a fast hash is as strong as a slow one here.
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** `Bearer <api_key>:<api_secret>` → its parts, or null when the header has another shape. */
export function parseAuthorization(header: string | undefined): { apiKey: string; apiSecret: string } | null {
  const match = /^Bearer ([A-Za-z0-9_-]+):([A-Za-z0-9_\-+/=]+)$/.exec(header?.trim() ?? '');
  if (!match?.[1] || !match[2]) return null;
  return { apiKey: match[1], apiSecret: match[2] };
}
