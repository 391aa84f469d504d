import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** The tables of an organization's records that a delete only marks (deleted_on), so that they can come back. */
type SoftDeletedTable = 'qrcodes' | 'services' | 'webhooks';

/** A record of the organization by its uuid, unless it is deleted. */
export function findLiveRow<T extends SoftDeletedTable>(
  db: Kysely<Database> | Transaction<Database>,
  table: T,
  organizationUuid: string,
  uuid: string,
): Promise<Selectable<Database[T]> | undefined> {
  return db
    .selectFrom(table as SoftDeletedTable)
    .selectAll()
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .executeTakeFirst() as Promise<Selectable<Database[T]> | undefined>;
}
