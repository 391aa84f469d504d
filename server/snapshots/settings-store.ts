import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A restore replaces the organization's settings by the snapshot's (or the defaults, when it had none). */
export async function deleteOrganizationSettings(trx: Transaction<Database>, organizationUuid: string): Promise<void> {
  await trx.deleteFrom('organization_settings').where('organization_uuid', '=', organizationUuid).execute();
}
