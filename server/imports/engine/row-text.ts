import { brokenCharacterAt, brokenCharacterMessage, toNfc } from '../../text/unicode.ts';
import type { RawRecord } from '../kind.ts';

const ADVICE = 'retype that text (in a JSON file: remove the \\ud800-\\udfff escape that has no pair) and import the row again';

/**
 * Puts the record's text cells in NFC, in place, so that the same name, tag or reference typed on
 * a Mac and on Windows is one; or, for a cell with a lone surrogate (which SQLite's UTF-8 would
 * store as U+FFFD), the row's error naming its column.
 */
export function normaliseRowText(record: RawRecord): string | undefined {
  for (const column in record) {
    const value = record[column];
    if (typeof value !== 'string') continue;
    const at = brokenCharacterAt(value);
    if (at >= 0) return `${column}: ${brokenCharacterMessage(at, ADVICE)}`;
    record[column] = toNfc(value);
  }
  return undefined;
}
