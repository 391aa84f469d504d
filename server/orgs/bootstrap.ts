import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { seedDemoServices } from '../services/demo.ts';
import { countOrganizations, createOrganization, type OrganizationCredentials } from './organizations.ts';

export const CREDENTIALS_FILE = 'credentials.json';
/** The first organization's name under `serve --demo`. */
export const DEMO_ORGANIZATION_NAME = 'Demo Organization';
/** The first organization's name otherwise (a clean server is not a demo). */
export const FIRST_ORGANIZATION_NAME = 'My Organization';

/**
 * On an empty database: creates the first organization (named `name`) and its admin key and
 * writes them to <dataDir>/credentials.json, readable by the owner only. Later starts read that
 * file back.
 */
export async function ensureDemoOrganization(
  db: Kysely<Database>,
  dataDir: string,
  name = FIRST_ORGANIZATION_NAME,
): Promise<OrganizationCredentials | null> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if ((await countOrganizations(db)) === 0) {
    const credentials = await createOrganization(db, { name });
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
