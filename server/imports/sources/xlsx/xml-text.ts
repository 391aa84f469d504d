import { isUtf8 } from 'node:buffer';
import { ImportInputError } from '../../errors.ts';

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Excel's escape of a character XML cannot hold (_x000D_ for a carriage return): Excel writes upper-case hex and reads either case. */
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

function entity(_match: string, body: string): string {
  const named = NAMED[body];
  if (named !== undefined) return named;
  const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
  // &#0; is a NUL as _x0000_ is: kept, so that the cell is refused (unstorableCharacter) rather than read without it.
  return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** XML's entity and character references resolved (`R&amp;D`, `&#233;`). */
export function xmlEntities(raw: string): string {
  return raw.includes('&') ? raw.replace(ENTITY, entity) : raw;
}

/** A run of XML text as the text it stands for: entities resolved, line ends as XML reads them, Excel's _xHHHH_ escapes undone. */
export function xmlText(raw: string): string {
  let text = raw;
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  text = xmlEntities(text);
  if (text.includes('_x')) text = text.replace(EXCEL_ESCAPE, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return text;
}

/** What decoded cell text holds that stored text cannot (a NUL, a lone surrogate: from _x0000_, &#0;, &#xD800; or a NUL byte), or null. */
export function unstorableCharacter(text: string): string | null {
  if (text.includes('\u0000')) return 'a NUL character';
  if (!text.isWellFormed()) return 'a broken character (an unpaired UTF-16 surrogate)';
  return null;
}

/** What a cell holds whose bytes are not UTF-8: decoded, each bad byte would be U+FFFD, stored silently. */
export const NOT_UTF8 = 'bytes that are not UTF-8 (a character written in another encoding, or a broken one)';

/** A cell refused for what its text holds (unstorableCharacter's answer, or NOT_UTF8); `where`: "Cell A2 of the worksheet". */
export function unstorableCell(where: string, what: string, advice: string): ImportInputError {
  return new ImportInputError(`${where} holds ${what}, which cell text cannot hold. ${advice}`);
}

/**
 * A workbook refused for what a sheet's name holds (unstorableCharacter's answer, or NOT_UTF8): no
 * spreadsheet program writes one, and the name would reach the preview, the results and the
 * stored import as U+FFFD or not at all. `position`: the sheet's among those the preview lists.
 */
export function unstorableSheetName(position: number, what: string): ImportInputError {
  return new ImportInputError(
    `Sheet ${position} of the workbook has a name that holds ${what}, which a sheet name cannot hold: the file is damaged or was not written by a spreadsheet program. Rename that sheet in the program that wrote the file and import the file again, or export the sheet you want from it as CSV UTF-8 and import that.`,
  );
}

/**
 * The bytes [start, end) as UTF-8 text, or null when they are not UTF-8. Only text in which
 * decoding put a U+FFFD has its bytes checked (one written in the file, EF BF BD, is kept).
 */
export function utf8Text(data: Buffer, start: number, end: number): string | null {
  const text = data.toString('utf8', start, end);
  return text.includes('\uFFFD') && !isUtf8(data.subarray(start, end)) ? null : text;
}

/** Whether raw UTF-8 bytes are already the text they stand for (no entity, no carriage return, no _x escape, no NUL). */
export function isPlainText(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte === 0x26 || byte === 0x0d || byte === 0 || (byte === 0x5f && bytes[i + 1] === 0x78)) return false;
  }
  return true;
}
