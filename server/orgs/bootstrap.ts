import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { seedDemoServices } from '../services/demo.ts';
import { countOrganizations, createOrganization, type OrganizationCredentials } from './organizations.ts';

export const CREDENTIALS_FILE = 'credentials.json';
export const DEMO_ORGANIZATION_NAME = 'Demo Organization';

/**
 * On an empty database: creates the demo organization and its admin key and writes them to
 * <dataDir>/credentials.json, readable by the owner only. Later starts read that file back.
 */
export async function ensureDemoOrganization(db: Kysely<Database>, dataDir: string): Promise<OrganizationCredentials | null> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if ((await countOrganizations(db)) === 0) {
    const credentials = await createOrganization(db, { name: DEMO_ORGANIZATION_NAME });
    await seedDemoServices(db, credentials.organization_uuid);
    writeCredentials(file, credentials);
    return credentials;
  }
  return readCredentials(file);
}

function writeCredentials(file: string, credentials: OrganizationCredentials): void {
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

function readCredentials(file: string): OrganizationCredentials | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as OrganizationCredentials;
  } catch {
    return null;
  }
}
