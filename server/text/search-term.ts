import { z } from 'zod';
import { typedText } from './typed-text.ts';

/** Longest search term a list takes. */
export const MAX_SEARCH_CHARS = 200;

/**
 * Control characters no one types into a search box: C0 other than tab and line breaks, and DEL.
 * A NUL would also cut SQLite's LIKE pattern short and match everything, or fail the query.
 */
const ALLOWED_CONTROLS = new Set(['\t', '\n', '\r']);
const isControl = (char: string) => {
  const code = char.charCodeAt(0);
  return (code < 0x20 || code === 0x7f) && !ALLOWED_CONTROLS.has(char);
};

/** A list's `search` text is refused (400 naming `search`) when it holds a control character. */
export const withoutControlCharacters = (schema: z.ZodString) =>
  schema.refine((text) => ![...text].some(isControl), {
    message: 'must not contain control characters (U+0000 to U+001F other than tab and line breaks, or U+007F)',
  });

/** The `search` parameter of a list: typed text, trimmed, at most MAX_SEARCH_CHARS characters, no control characters. */
export const searchTerm = () => withoutControlCharacters(typedText().trim().max(MAX_SEARCH_CHARS));
