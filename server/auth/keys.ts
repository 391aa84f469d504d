import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import { generateCredential, hashSecret } from './credentials.ts';
import type { Role } from './roles.ts';
import { insertKey } from './store.ts';

export interface IssuedKey {
  api_key: string;
  api_secret: string;
  role: Role;
  organization_uuid: string;
}

export async function issueApiKey(db: Kysely<Database>, input: { organizationUuid: string; role: Role; name: string }): Promise<IssuedKey> {
  const { apiKey, apiSecret } = generateCredential();
  await insertKey(db, {
    uuid: randomUUID(),
    api_key: apiKey,
    secret_hash: hashSecret(apiSecret),
    role: input.role,
    name: input.name,
    organization_uuid: input.organizationUuid,
    created_on: nowIso(),
    revoked_on: null,
  });
  return { api_key: apiKey, api_secret: apiSecret, role: input.role, organization_uuid: input.organizationUuid };
}
