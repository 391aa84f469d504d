import { randomBytes } from 'node:crypto';

let pool = Buffer.alloc(0);
let offset = 0;
let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): time-ordered, so rows inserted one after another land at the
 * end of the primary-key index instead of at random places (much faster bulk inserts).
 */
export function uuid7(): string {
  if (offset + 10 > pool.length) {
    pool = randomBytes(10 * 4096);
    offset = 0;
  }
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) ms = ++lastMs;
  } else {
    sequence = 0;
    lastMs = ms;
  }
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  pool.copy(bytes, 8, offset, offset + 8);
  offset += 10;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
