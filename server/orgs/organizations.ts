import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { generateCredential, hashSecret } from '../auth/credentials.ts';
import { insertKey } from '../auth/store.ts';
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

/** A new organization's uuid and admin credential, not yet written anywhere. */
export function newOrganizationCredentials(): OrganizationCredentials {
  const { apiKey, apiSecret } = generateCredential();
  return { organization_uuid: randomUUID(), api_key: apiKey, api_secret: apiSecret };
}

/** Writes the organization and the admin key that `credentials` name, in the caller's transaction. */
export async function insertOrganization(
  trx: Transaction<Database>,
  credentials: OrganizationCredentials,
  input: { name: string; defaultTimezone?: string },
): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('organizations')
    .values({
      uuid: credentials.organization_uuid,
      name: toNfc(input.name),
      default_timezone: input.defaultTimezone ?? DEFAULT_TIMEZONE,
      created_on: now,
    })
    .execute();
  await insertKey(trx, {
    uuid: randomUUID(),
    api_key: credentials.api_key,
    secret_hash: hashSecret(credentials.api_secret),
    role: 'admin',
    name: `${toNfc(input.name)} admin`,
    organization_uuid: credentials.organization_uuid,
    created_on: now,
    revoked_on: null,
  });
}

/** Creates an organization together with its first admin key, atomically. */
export async function createOrganization(
  db: Kysely<Database>,
  input: { name: string; defaultTimezone?: string },
): Promise<OrganizationCredentials> {
  const credentials = newOrganizationCredentials();
  await db.transaction().execute((trx) => insertOrganization(trx, credentials, input));
  return credentials;
}

export async function countOrganizations(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organization the data folder was set up with (the oldest), or undefined before the first start made it. */
export async function firstOrganization(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select('uuid')
    .orderBy('created_on', 'asc')
    .orderBy(sql`rowid`, 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.uuid;
}
