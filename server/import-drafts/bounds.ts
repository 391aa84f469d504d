import { ApiError } from '../http/errors.ts';
import type { ImportKind } from '../imports/kind.ts';
import { describeLimit, type ImportLimits } from '../imports/limits.ts';

/**
 * What a draft accepts, checked before anything is built or written (docs/hardening.md, "Import
 * drafts"): a cell is at most its column's length, one change adds at most maxDraftChangeBytes of
 * text, and a result's length is computed (matches × length change) before any string is made,
 * so no input reaches V8's string or array limits.
 */

/** Characters of a cell whose column has no length of its own in the kind (a body's cell is cut off there too). */
export const MAX_CELL_CHARS = 10_000;

/**
 * Bytes of a stored row's cells that a read takes in. Every row a draft writes now is far below
 * (the longest QR code row is 14,260 characters); a larger row was stored before these bounds
 * and is shown as too large instead of being read (store.ts), so a page of 1,000 rows reads at
 * most 64 MB.
 */
export const MAX_ROW_READ_BYTES = 64 * 1024;

const count = (n: number) => n.toLocaleString('en-US');

const refuse = (path: string, message: string) => new ApiError('VALIDATION_ERROR', message, [{ path, message }]);

/** The longest text a column of the kind takes, in characters. */
export function cellLimit(kind: Pick<ImportKind, 'maxLength'>, column: string): number {
  return Math.min(kind.maxLength?.[column] ?? MAX_CELL_CHARS, MAX_CELL_CHARS);
}

/** Half of a UTF-16 surrogate pair standing alone: not a character of Unicode. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Why a text cannot be a draft's cell text (a NUL, or half of a UTF-16 surrogate pair), or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character (U+0000), which cell text cannot hold';
  LONE_SURROGATE.lastIndex = 0;
  if (LONE_SURROGATE.test(text)) return 'holds a broken character (half of a UTF-16 surrogate pair), which is not valid Unicode';
  return null;
}

/** Text from an import's stored row as valid cell text: NUL characters removed, broken characters replaced by U+FFFD. */
export function cleanText(text: string): { text: string; cleaned: boolean } {
  if (textProblem(text) === null) return { text, cleaned: false };
  return { text: text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD'), cleaned: true };
}

/** A 400 unless a cell of `chars` characters fits its column (a cell already longer may keep or lose length, never gain). */
export function requireCellFits(kind: Pick<ImportKind, 'maxLength'>, column: string, chars: number, before: number, where: string): void {
  const limit = cellLimit(kind, column);
  if (chars <= limit || chars <= before) return;
  throw refuse(
    'column',
    `${where} would make ${column} ${count(chars)} characters long; ${column} holds at most ${count(limit)} characters. Nothing was changed.`,
  );
}

/** A 400 unless the bytes a change adds are within the limit (`path`: the body's field the change is about). */
export function requireChangeFits(limits: ImportLimits, addedBytes: number, what: string, path: string): void {
  if (addedBytes <= limits.maxDraftChangeBytes) return;
  throw refuse(
    path,
    `${what} would add more text to the draft than one change may: at most ${describeLimit(limits, 'maxDraftChangeBytes')}. Nothing was changed: change fewer rows at a time, or use a shorter text.`,
  );
}

/** A 400 when the organization keeps as many drafts as it may. */
export function requireDraftRoom(limits: ImportLimits, drafts: number): void {
  if (drafts < limits.maxDraftsPerOrganization) return;
  const message = `The organization keeps ${count(drafts)} import drafts, the most it may (${describeLimit(limits, 'maxDraftsPerOrganization')}). Import or discard a draft first.`;
  throw new ApiError('VALIDATION_ERROR', message, [{ path: 'organization_uuid', message }]);
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
const isAscii = (text: string) => /^\p{ASCII}*$/u.test(text);

/** What a replace makes of one text, measured without making it: its length in characters and the bytes it adds (negative: removes). */
export interface Measured {
  matches: number;
  chars: number;
  addedBytes: number;
}

/** What a replace looks for: the text, whether case matters, whether it must be the whole cell. */
export interface Find {
  find: string;
  matchCase: boolean;
  wholeCell: boolean;
}

/** The text with A-Z lower-cased and nothing else changed (its length too). */
const lowerAscii = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * How many times a replace matches `text` (as the global regular expression `pattern` made from
 * `find` would, left to right without overlaps), and the bytes of those matches. A find in ASCII
 * is counted with indexOf (case ignored by lower-casing A-Z only: the expression's case folding
 * never maps another letter onto ASCII); any other find by listing the matches natively, never
 * more than the text's length (a cell read is at most MAX_ROW_READ_BYTES).
 */
function matchesOf(text: string, pattern: RegExp, { find, matchCase, wholeCell }: Find): { count: number; bytes: number } {
  if (isAscii(find)) {
    const haystack = matchCase ? text : lowerAscii(text);
    const needle = matchCase ? find : lowerAscii(find);
    let count = 0;
    if (wholeCell) count = haystack === needle ? 1 : 0;
    else for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
    return { count, bytes: count * find.length };
  }
  const found = text.match(pattern) ?? [];
  return { count: found.length, bytes: found.reduce((sum, match) => sum + utf8(match), 0) };
}

/**
 * Measures `text.replace(pattern, replace)` without making it: each match is `find.length`
 * characters (the pattern matches one character per character of find), so the result is the
 * text's length plus matches × the change in length.
 */
export function measureReplace(text: string, pattern: RegExp, replace: string, find: Find): Measured {
  const { count, bytes } = matchesOf(text, pattern, find);
  return {
    matches: count,
    chars: text.length + count * (replace.length - find.find.length),
    addedBytes: count * utf8(replace) - bytes,
  };
}

/** The bytes a cell's new text adds over its old (negative: removes). */
export function addedBytes(before: string, after: string): number {
  return utf8(after) - utf8(before);
}
