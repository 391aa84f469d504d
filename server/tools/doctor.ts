/**
 * The decryption doctor: when a delivery does not decrypt or verify, it tries the usual mistakes
 * (uppercase hex, a raw or base64 digest instead of hex, base64url, a body re-serialised after
 * signing, whitespace in the secret, ...) and says which one explains the failure.
 * Every check only calls the wire-format module; nothing here re-implements it.
 */
import { extractPayload } from '../wire-format/body.ts';
import { decrypt, decryptWithKey, KEY_CHARS } from '../wire-format/cipher.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import type { DecryptionProblem } from '../wire-format/problems.ts';
import { HEX_SIGNATURE, verify, withoutSignaturePrefix } from '../wire-format/signature.ts';
import type { Hint } from './schemas.ts';

/** Whether `attempt` runs without throwing: a decryption that fails throws. */
function succeeds(attempt: () => unknown): boolean {
  try {
    attempt();
    return true;
  } catch {
    return false;
  }
}

const decrypts = (payload: string, signatureHex: string) => succeeds(() => decrypt(payload, signatureHex));
// A wrong key gives valid padding about once in 256 tries: only a JSON plaintext shows the key was right.
const decryptsWithKey = (payload: string, key: Buffer) => succeeds(() => JSON.parse(decryptWithKey(payload, key).toString('utf8')));

/** The 32 bytes a base64 or base64url string decodes to, or null. */
function digestFromBase64(value: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** Hints for a signature that parseSignature refused. */
function signatureHints(signature: string, payload: string | null): Hint[] {
  const given = signature.trim();
  if (given === '') {
    return [
      {
        code: 'SIGNATURE_MISSING',
        field: 'signature',
        message: 'No signature was given. Pass the X-Service-Signature header sent with this same delivery ("sha256=<64 hex>").',
      },
    ];
  }
  const worksWith = (hex: string) => (payload !== null && decrypts(payload, hex) ? ' With that value the payload decrypts.' : '');
  // Checked before any trimming: a raw digest written as text can start or end with bytes that trim() removes.
  const untrimmed = withoutSignaturePrefix(signature);
  if (untrimmed.length === 32 && !/^[0-9a-fA-F]*$/.test(untrimmed) && !digestFromBase64(untrimmed)) {
    const hex = Buffer.from(untrimmed, 'latin1').toString('hex');
    return [
      {
        code: 'SIGNATURE_IS_RAW_DIGEST',
        field: 'signature',
        message: `The signature looks like the raw 32-byte HMAC digest written as text. Hex-encode it: the header is "sha256=" and 64 lowercase hex characters (digest("hex")).${worksWith(hex)}`,
      },
    ];
  }
  const hints: Hint[] = [];
  let value = given;
  const headerName = new RegExp(`^${SIGNATURE_HEADER}\\s*:\\s*`, 'i');
  if (headerName.test(value)) {
    value = value.replace(headerName, '');
    hints.push({
      code: 'SIGNATURE_HAS_HEADER_NAME',
      field: 'signature',
      message: 'The signature includes the header name; pass only its value, "sha256=<64 hex>".',
    });
  }
  if (/^(["']).*\1$/.test(value)) {
    value = value.slice(1, -1).trim();
    hints.push({ code: 'SIGNATURE_QUOTED', field: 'signature', message: 'The signature is wrapped in quotes; pass it without them.' });
  }
  const bare = withoutSignaturePrefix(value).trim();
  if (HEX_SIGNATURE.test(bare)) {
    const works = worksWith(bare);
    return hints.map((hint, i) => (i === hints.length - 1 ? { ...hint, message: hint.message + works } : hint));
  }
  const fromBase64 = digestFromBase64(bare);
  if (fromBase64) {
    const hex = fromBase64.toString('hex');
    const url = /[-_]/.test(bare) ? 'base64url' : 'base64';
    hints.push({
      code: 'SIGNATURE_IS_BASE64',
      field: 'signature',
      message: `The signature is the ${url} of the raw 32-byte HMAC digest. The service sends it as "sha256=" and 64 lowercase hex characters (digest("hex"), not digest("base64")).${worksWith(hex)}`,
    });
    return hints;
  }
  if (/^[0-9a-fA-F]+$/.test(bare)) {
    const lengths: Record<number, string> = {
      32: 'That is only half a signature (the AES key part); pass all 64 characters.',
      40: 'That is the length of an HMAC-SHA1; the service uses HMAC-SHA256 (64 hex characters).',
      128: 'That is the length of an HMAC-SHA512; the service uses HMAC-SHA256 (64 hex characters).',
    };
    hints.push({
      code: 'SIGNATURE_WRONG_LENGTH',
      field: 'signature',
      message: `The signature has ${bare.length} hex characters instead of 64. ${lengths[bare.length] ?? 'It was cut off or has extra characters.'}`,
    });
    return hints;
  }
  hints.push({
    code: 'SIGNATURE_MALFORMED',
    field: 'signature',
    message:
      'The signature must be "sha256=" followed by 64 hex characters, taken from the X-Service-Signature header of the same delivery.',
  });
  return hints;
}

/** Repairs of a payload string that a transport or a copy-paste commonly applies. */
function payloadRepairs(payload: string): Array<{ code: string; repaired: string; message: string }> {
  const repairs: Array<{ code: string; repaired: string; message: string }> = [];
  if (/[-_]/.test(payload) || (/^[A-Za-z0-9+/]+$/.test(payload.trim()) && payload.trim().length % 4 !== 0 && payload.trim().length > 40)) {
    const standard = payload.trim().replace(/-/g, '+').replace(/_/g, '/');
    repairs.push({
      code: 'PAYLOAD_IS_BASE64URL',
      repaired: standard.padEnd(Math.ceil(standard.length / 4) * 4, '='),
      message:
        'The payload is base64url (- and _ , padding dropped); the service uses standard base64 (+ and /, = padding). Do not re-encode the payload.',
    });
  }
  if (/ /.test(payload.trim())) {
    repairs.push({
      code: 'PAYLOAD_PLUS_AS_SPACE',
      repaired: payload.trim().replace(/ /g, '+'),
      message: 'The payload contains spaces where base64 has "+": it went through form or URL decoding. Read the raw JSON body.',
    });
  }
  if (/%[0-9A-Fa-f]{2}/.test(payload)) {
    try {
      repairs.push({
        code: 'PAYLOAD_URL_ENCODED',
        repaired: decodeURIComponent(payload.trim()),
        message: 'The payload is URL-encoded (%2B, %2F, %3D); decode it, or better, read the raw JSON body.',
      });
    } catch {
      // not valid percent-encoding after all
    }
  }
  if (payload.includes('\\/') || payload.includes('\\u')) {
    try {
      repairs.push({
        code: 'PAYLOAD_JSON_ESCAPED',
        repaired: JSON.parse(`"${payload.trim().replace(/"/g, '\\"')}"`) as string,
        message: 'The payload still has JSON escapes (\\/); it was copied from JSON text without parsing it.',
      });
    } catch {
      // not a JSON string after all
    }
  }
  return repairs;
}

/** Which wrong AES key derivation, if any, opens the payload. */
function keyDerivationHints(payload: string, signatureHex: string): Hint[] {
  const upper = Buffer.from(signatureHex.slice(0, KEY_CHARS).toUpperCase(), 'ascii');
  if (/[a-f]/.test(signatureHex.slice(0, KEY_CHARS)) && decryptsWithKey(payload, upper)) {
    return [
      {
        code: 'KEY_FROM_UPPERCASE_HEX',
        field: 'payload',
        message:
          'The payload was encrypted with a key taken from UPPERCASE hex. The key is the first 32 characters of the lowercase hex HMAC (as ASCII bytes).',
      },
    ];
  }
  if (decryptsWithKey(payload, Buffer.from(signatureHex, 'hex'))) {
    return [
      {
        code: 'KEY_FROM_DIGEST_BYTES',
        field: 'payload',
        message:
          'The payload was encrypted with the 32 raw bytes of the HMAC digest as the key. The key is the first 32 characters of the hex HMAC, taken as ASCII bytes.',
      },
    ];
  }
  return [];
}

/**
 * Why a payload (or a body {"payload": ...}) did not decrypt with this signature. `problem` is the
 * wire-format module's code; the answer always holds at least one hint.
 */
export function diagnoseDecryption(
  payloadOrBody: string,
  signature: string,
  problem: Exclude<DecryptionProblem, 'SIGNATURE_MISSING' | 'BODY_INCOMPLETE' | 'BODY_NOT_A_DELIVERY'>,
): Hint[] {
  let payload: string | null;
  try {
    payload = extractPayload(payloadOrBody);
  } catch (error) {
    return [{ code: 'BODY_NOT_A_DELIVERY', field: 'payload', message: (error as Error).message }];
  }
  if (problem === 'MALFORMED_SIGNATURE') return signatureHints(signature, payload);

  const signatureHex = withoutSignaturePrefix(signature.trim()).toLowerCase();
  const hints: Hint[] = [];

  for (const repair of payloadRepairs(payload)) {
    if (decrypts(repair.repaired, signatureHex))
      return [...hints, { code: repair.code, field: 'payload', message: `${repair.message} Repaired, it decrypts.` }];
  }
  if (problem === 'DECRYPTION_FAILED' || problem === 'PLAINTEXT_NOT_JSON') {
    const derivation = keyDerivationHints(payload, signatureHex);
    if (derivation.length > 0) return [...hints, ...derivation];
    return [
      ...hints,
      {
        code: 'SIGNATURE_OF_ANOTHER_DELIVERY',
        field: 'signature',
        message:
          'The payload does not decrypt with the key from this signature. The key is the first 32 hex characters of the X-Service-Signature sent with this same delivery: take both from one request (retries of one delivery share the signature; other deliveries do not).',
      },
    ];
  }
  const repairs = payloadRepairs(payload);
  if (repairs.length > 0) return [...hints, ...repairs.map((r) => ({ code: r.code, field: 'payload' as const, message: r.message }))];
  return [
    ...hints,
    {
      code: 'PAYLOAD_DAMAGED',
      field: 'payload',
      message:
        'The payload is not the base64 string the service sent: it is cut off or altered. Copy the "payload" field of the raw request body exactly.',
    },
  ];
}

/** A note for a signature sent in uppercase hex (accepted, but not what the service sends). */
export function uppercaseSignatureHint(signature: string): Hint | null {
  const bare = withoutSignaturePrefix(signature.trim());
  if (!HEX_SIGNATURE.test(bare) || bare === bare.toLowerCase()) return null;
  return {
    code: 'UPPERCASE_HEX',
    field: 'signature',
    message:
      'The signature is in uppercase hex; the service sends lowercase. It is accepted here, but derive the AES key from the lowercase hex and compare signatures case-insensitively or as bytes.',
  };
}

/** Why a decrypted plaintext does not verify with this secret. Always at least one hint. */
export function diagnoseVerification(plaintext: Buffer, signature: string, secret: string): Hint[] {
  const hints: Hint[] = [];
  const trimmed = secret.trim();
  if (trimmed !== secret && verify(plaintext, trimmed, signature)) {
    return [
      ...hints,
      {
        code: 'SECRET_WHITESPACE',
        field: 'secret',
        message:
          'The secret has leading or trailing whitespace (a newline from a file or a copy-paste). Without it, the signature is valid.',
      },
    ];
  }
  const unquoted = trimmed.replace(/^(["'])(.*)\1$/, '$2');
  if (unquoted !== trimmed && verify(plaintext, unquoted, signature)) {
    return [
      ...hints,
      { code: 'SECRET_QUOTED', field: 'secret', message: 'The secret is wrapped in quotes. Without them, the signature is valid.' },
    ];
  }
  const reserialised = reserialisations(plaintext).find((text) => verify(text, secret, signature) || verify(text, trimmed, signature));
  if (reserialised !== undefined) {
    return [
      ...hints,
      {
        code: 'BODY_RESERIALISED',
        field: 'payload',
        message:
          'The signature matches a re-serialised form of this JSON, not the bytes that were encrypted: the JSON was parsed and stringified again between signing and encrypting. Sign exactly the bytes you encrypt, and verify the decrypted bytes as they are, never JSON.stringify(JSON.parse(...)).',
      },
    ];
  }
  return [
    ...hints,
    {
      code: 'WRONG_SECRET',
      field: 'secret',
      message:
        'The signature is not the HMAC-SHA256 of the decrypted bytes under this secret. The secret belongs to another webhook, or it was changed; use the secret returned when this webhook was registered.',
    },
  ];
}

/** Other serialisations of the same JSON value than the bytes given. */
function reserialisations(plaintext: Buffer): string[] {
  const text = plaintext.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const forms = [JSON.stringify(value), JSON.stringify(value, null, 2), JSON.stringify(value, null, 4), JSON.stringify(value, null, '\t')];
  return [...new Set(forms)].filter((form) => form !== text);
}

/** A hint for a delivery that decrypted but could not be verified: no secret known. */
export function noSecretHint(): Hint {
  return {
    code: 'NO_SECRET',
    field: 'secret',
    message: 'No secret is known, so the signature could not be checked. Give the webhook secret to verify it.',
  };
}
