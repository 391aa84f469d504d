import { createCipheriv, randomUUID } from 'node:crypto';
import { encrypt } from '../../server/wire-format/cipher.ts';
import { seal } from '../../server/wire-format/seal.ts';
import { formatSignatureHeader, sign } from '../../server/wire-format/signature.ts';

export const SECRET = 'whsec_7f3a9c0e5b2d4f6a8c1e3b5d7f9a0c2e';

/** A fixed IV, so every crafted delivery (and what a wrong key does to it) is the same on every run. */
export const FIXED_IV = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');

/** A plaintext envelope (data shortened). */
export function envelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `evt_${randomUUID()}`,
    type: 'service_confirmation.check_in',
    created_at: '2026-11-21T10:00:00.000Z',
    data: { uuid: randomUUID(), status: 'CHECK_IN', note: 'Gate code 4711 – café ✓', location_verified: true },
    ...overrides,
  };
}

export interface CraftedDelivery {
  plaintext: string;
  body: string;
  signature: string;
  signatureHeader: string;
  payload: string;
}

/** A delivery exactly as the service sends it. */
export function craft(plaintextValue: Record<string, unknown> | string, secret = SECRET, iv: Uint8Array = FIXED_IV): CraftedDelivery {
  const plaintext = typeof plaintextValue === 'string' ? plaintextValue : JSON.stringify(plaintextValue);
  const sealed = seal(plaintext, secret, iv);
  const payload = (JSON.parse(sealed.body) as { payload: string }).payload;
  return { plaintext, body: sealed.body, signature: sealed.signature, signatureHeader: sealed.signatureHeader, payload };
}

/** A payload encrypted with an arbitrary AES key: how a sender with a wrong key derivation would do it. */
export function encryptWithKey(plaintext: string, key: Buffer, iv: Uint8Array = FIXED_IV): string {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([Buffer.from(iv), cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

export { encrypt, formatSignatureHeader, sign };

/** Headers of a delivery as the sender sends them. */
export function deliveryHeaders(delivery: CraftedDelivery, extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'x-service-signature': delivery.signatureHeader, ...extra };
}
