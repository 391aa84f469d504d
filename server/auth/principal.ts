import type { Db } from '../db/database.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { perDatabase } from '../db/prepared.ts';
import { databaseVersion, VersionedAnswers } from '../db/version.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import { parseAuthorization, secretMatches } from './credentials.ts';
import { roleAtLeast, type Role } from './roles.ts';
import type { FailedAuthThrottle } from './throttle.ts';
import { findActiveKey } from './store.ts';

/** Who is calling: one API key of one organization, with one role. */
export interface Principal {
  keyUuid: string;
  apiKey: string;
  role: Role;
  organizationUuid: string;
  /**
   * The database version (see databaseVersion) when the key was found active. Reads of the same
   * request may use it for their own version-checked caches instead of asking again.
   */
  readAt: string;
}

/** Authorization headers whose key was found active and secret right, per database (see authenticate). */
const MAX_VERIFIED = 1_000;
const verifiedOf = perDatabase(() => new VersionedAnswers<Principal>(MAX_VERIFIED));

/**
 * Who sent this Authorization header, or a 401 that says what is wrong with it. With a throttle,
 * wrong credentials count against the client address and the (address, key id) pair and too many
 * get 429; the right secret is never throttled.
 */
export async function authenticate(
  db: Db,
  authorization: string | undefined,
  throttle?: { instance: FailedAuthThrottle; clientAddress: string },
): Promise<Principal> {
  if (!authorization) {
    throw new ApiError('UNAUTHORIZED', 'Missing credential. Send the header Authorization: Bearer <api_key>:<api_secret>.');
  }
  await outsideTransaction(db);
  const readAt = databaseVersion(db);
  const known = verifiedOf(db);
  // The same header, while the database has not changed at all since its key was read: the key
  // is still active (a revoke is a change) and the secret is the one whose hash matched.
  const principal = known.get(readAt, authorization);
  if (principal) return principal;
  const credential = parseAuthorization(authorization);
  if (!credential) {
    throw new ApiError('UNAUTHORIZED', 'Malformed credential. The header must read Authorization: Bearer <api_key>:<api_secret>.');
  }
  const key = await findActiveKey(db, credential.apiKey);
  if (!key || !secretMatches(credential.apiSecret, key.secret_hash)) {
    throttle?.instance.fail(throttle.clientAddress, credential.apiKey);
    throw new ApiError('UNAUTHORIZED', 'Invalid API key or secret.');
  }
  const found = { keyUuid: key.uuid, apiKey: key.api_key, role: key.role, organizationUuid: key.organization_uuid, readAt };
  known.set(readAt, authorization, found);
  return found;
}

export function requireRole(principal: Principal, needed: Role): void {
  if (!roleAtLeast(principal.role, needed)) {
    throw forbidden(`This needs the ${needed} role; the API key in use has the ${principal.role} role.`);
  }
}

/** The key may act only on its own organization's data. */
export function requireOrganization(principal: Principal, organizationUuid: string): void {
  if (principal.organizationUuid !== organizationUuid) {
    throw forbidden(`The API key in use does not belong to organization ${organizationUuid}.`);
  }
}
