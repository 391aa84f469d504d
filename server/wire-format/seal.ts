import { deliveryBody } from './body.ts';
import type { Bytes } from './bytes.ts';
import { encrypt } from './cipher.ts';
import { formatSignatureHeader, sign } from './signature.ts';

export interface SealedDelivery {
  /** The exact request body: {"payload":"<base64>"} */
  body: string;
  /** Lowercase hex HMAC of the plaintext. */
  signature: string;
  /** The signature header value, sha256=<hex>. */
  signatureHeader: string;
}

/** Everything a sender needs for one attempt: a fresh IV each call, so each attempt's payload differs. */
export function seal(plaintext: Bytes, secret: string, iv?: Uint8Array): SealedDelivery {
  const signature = sign(plaintext, secret);
  return {
    body: deliveryBody(encrypt(plaintext, signature, iv)),
    signature,
    signatureHeader: formatSignatureHeader(signature),
  };
}
