import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import { likeEscaped, likePattern, SHORT_SEARCH_CAP } from '../db/trigram-search.ts';

const SEARCHED = ['name', 'location', 'label', 'external_reference_id'] as const;

type QrCodeQuery = SelectQueryBuilder<Database, 'qrcodes', object>;

/** The searched fields contain the term, ignoring ASCII case (SQLite's LIKE): what the search means. */
export function whereContains<Q extends QrCodeQuery>(query: Q, term: string): Q {
  const pattern = likePattern(term);
  return query.where((eb) => eb.or(SEARCHED.map((column) => likeEscaped(sql.ref(`qrcodes.${column}`), pattern)))) as Q;
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
