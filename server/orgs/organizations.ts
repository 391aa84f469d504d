import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { issueApiKey } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import { toNfc } from '../text/unicode.ts';
import { nowIso } from '../time.ts';

export const DEFAULT_TIMEZONE = 'Australia/Melbourne';

/** The three values a client needs, as written to credentials.json and printed by `org create`. */
export interface OrganizationCredentials {
  organization_uuid: string;
  api_key: string;
  api_secret: string;
}

/** Creates an organization together with its first admin key, atomically. */
export async function createOrganization(
  db: Kysely<Database>,
  input: { name: string; defaultTimezone?: string },
): Promise<OrganizationCredentials> {
  const name = toNfc(input.name);
  return db.transaction().execute(async (trx) => {
    const uuid = randomUUID();
    await trx
      .insertInto('organizations')
      .values({ uuid, name, default_timezone: input.defaultTimezone ?? DEFAULT_TIMEZONE, created_on: nowIso() })
      .execute();
    const key = await issueApiKey(trx, { organizationUuid: uuid, role: 'admin', name: `${name} admin` });
    return { organization_uuid: uuid, api_key: key.api_key, api_secret: key.api_secret };
  });
}

export async function countOrganizations(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
