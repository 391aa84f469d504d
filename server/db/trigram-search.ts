import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Substring search over FTS5 trigram indexes (QR codes, tasks): the index finds candidates by a few
 * of the term's trigrams, and LIKE keeps the rows that really contain the term.
 */

/**
 * A search of one or two characters cannot use a trigram index: it looks among the organization's
 * newest SHORT_SEARCH_CAP rows only, so that it reads at most that many rows.
 */
export const SHORT_SEARCH_CAP = 10_000;

/** Characters, not UTF-16 units: the trigram tokenizer and LIKE both count code points. */
export const isShortSearch = (term: string) => [...term].length < 3;

/**
 * At most this many of a term's trigrams go to the index. Each trigram is a list of rows to walk,
 * and the common ones ("Str", "eet") hold most of a million: "123457 Existing Street" took 100 to
 * 300 ms with all 20 of its trigrams, a few ms with four. Fewer trigrams find more candidates;
 * LIKE keeps only the right ones.
 */
const MAX_TRIGRAMS = 4;

/** Digits and punctuation are rarer in names and addresses than letters and spaces: their trigrams come first. */
const rarity = (trigram: string) => trigram.replace(/[a-z ]/gi, '').length;

/**
 * The FTS5 query for the rows that may contain `term`: some of its trigrams, each as a quoted
 * string (a `"` doubled), so that quotes, AND, NEAR, *, ^ and : are text, not query syntax. The
 * index keeps no positions, so this finds rows holding those trigrams anywhere; LIKE then keeps
 * the rows that hold the term itself.
 */
export function trigramQuery(term: string): string {
  const chars = [...term];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  return [...trigrams]
    .sort((a, b) => rarity(b) - rarity(a))
    .slice(0, MAX_TRIGRAMS)
    .map((t) => `"${t.replaceAll('"', '""')}"`)
    .join(' AND ');
}

/** LIKE's pattern for "contains term", with % _ and \\ as text (for `likeEscaped`). */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `value LIKE pattern` with the escape character likePattern() uses, so % _ and \\ in the term stay text. */
export const likeEscaped = (value: Expression<unknown> | RawBuilder<unknown>, pattern: string) =>
  sql<SqlBool>`${value} like ${pattern} escape '\\'`;
