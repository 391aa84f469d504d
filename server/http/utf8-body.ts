import { isUtf8 } from 'node:buffer';
import { firstInvalidByte } from '../imports/sources/text-decoder.ts';

/** The body-parser error type of a JSON body whose bytes are not UTF-8 (error-handler.ts answers it). */
export const BODY_NOT_UTF8 = 'body.not.utf8';

/**
 * express.json's `verify`: a body declared UTF-8 (JSON's default) must be UTF-8, or its broken
 * bytes would be decoded to U+FFFD and stored so. The error carries the first broken byte's offset.
 */
export function verifyUtf8Body(_req: unknown, _res: unknown, body: Buffer, charset: string): void {
  if (!/^utf-?8$/i.test(charset) || isUtf8(body)) return;
  throw Object.assign(new Error('The request body is not UTF-8.'), { type: BODY_NOT_UTF8, offset: firstInvalidByte(body, 'utf-8') });
}
