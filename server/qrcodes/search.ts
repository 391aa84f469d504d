import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * A search of one or two characters cannot use the trigram index: it looks among the
 * organization's newest SHORT_SEARCH_CAP live QR codes only, so that it reads at most that many rows.
 */
export const SHORT_SEARCH_CAP = 10_000;

const SEARCHED = ['name', 'location', 'label', 'external_reference_id'] as const;

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

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type QrCodeQuery = SelectQueryBuilder<Database, 'qrcodes', object>;

/** The searched fields contain the term, ignoring ASCII case (SQLite's LIKE): what the search means. */
export function whereContains<Q extends QrCodeQuery>(query: Q, term: string): Q {
  const pattern = likePattern(term);
  return query.where((eb) =>
    eb.or(SEARCHED.map((column) => sql<boolean>`${sql.ref(`qrcodes.${column}`)} like ${pattern} escape '\\'`)),
  ) as Q;
}

/** The rowid of the organization's SHORT_SEARCH_CAP-th newest live QR code, or 0 when it has fewer. */
export async function shortSearchFloor(db: Kysely<Database>, organizationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('qrcodes')
    .select(sql<number>`rowid`.as('id'))
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .orderBy(sql`rowid`, 'desc')
    .limit(1)
    .offset(SHORT_SEARCH_CAP - 1)
    .executeTakeFirst();
  return row?.id ?? 0;
}
