import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../data-dir/atomic-file.ts';
import type { CatalogDb } from '../services/catalog-writes.ts';
import { seedDemoServices } from '../services/demo.ts';
import { StartupError } from '../startup-error.ts';
import { CREDENTIALS_FILE } from './credentials-file.ts';
import { countOrganizations, insertOrganization, newOrganizationCredentials, type OrganizationCredentials } from './organizations.ts';

export { CREDENTIALS_FILE };
/** The first organization's name under `serve --demo`. */
export const DEMO_ORGANIZATION_NAME = 'Demo Organization';
/** The first organization's name otherwise (a clean server is not a demo). */
export const FIRST_ORGANIZATION_NAME = 'My Organization';

/**
 * On an empty database: makes the first organization (named `name`), its admin key and demo
 * services, with the credential in <dataDir>/credentials.json (owner only). The credential is
 * written first, whole (temp file and rename), then the organization it names in one transaction:
 * a start cut short at any point leaves either no credential (the next start begins again) or a
 * credential whose organization the next start creates. Later starts read the file back.
 */
export async function ensureDemoOrganization(
  db: CatalogDb,
  dataDir: string,
  name = FIRST_ORGANIZATION_NAME,
): Promise<OrganizationCredentials | null> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if ((await countOrganizations(db.kysely)) > 0) return readCredentialsIfAny(file);
  const saved = readCredentials(file);
  const credentials = saved ?? newOrganizationCredentials();
  if (!saved) writeFileAtomic(file, `${JSON.stringify(credentials, null, 2)}\n`);
  await db.kysely.transaction().execute(async (trx) => {
    await insertOrganization(trx, credentials, { name });
    // Synchronous statements on the same connection, inside this transaction.
    seedDemoServices(db, credentials.organization_uuid);
  });
  return credentials;
}

function isCredentials(value: unknown): value is OrganizationCredentials {
  const v = value as Partial<Record<keyof OrganizationCredentials, unknown>> | null;
  return typeof v?.organization_uuid === 'string' && typeof v.api_key === 'string' && typeof v.api_secret === 'string';
}

/** Set up before: the credential to show, if the file still holds one. */
function readCredentialsIfAny(file: string): OrganizationCredentials | null {
  try {
    return readCredentials(file);
  } catch {
    return null;
  }
}

/** The saved credential; null when there is none. A file that is there but unreadable is refused, never overwritten. */
function readCredentials(file: string): OrganizationCredentials | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StartupError(
      `${file} cannot be read (${(error as Error).message}). Move it away or fix its permissions; nothing was changed.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isCredentials(parsed))
    throw new StartupError(
      `${file} is not a QR Sandbox credential (JSON with organization_uuid, api_key and api_secret). Move it away and restore a backup, or start with an empty data folder; nothing was changed.`,
    );
  return parsed;
}
