export type Bytes = string | Uint8Array;

/** Strings as their UTF-8 bytes; byte arrays as they are, without a copy. */
export function toBuffer(value: Bytes): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
