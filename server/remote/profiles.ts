import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { profileSchema, type Profile, type PublicProfile } from './schemas.ts';

export const PROFILES_FILE = 'profiles.json';

/** `secret_protection` of a secret kept in clear text (headless: the file's mode 0600 is all that protects it). */
export const UNENCRYPTED = 'none';

/**
 * Encrypts profile secrets for the file, e.g. with Electron's safeStorage in the desktop app.
 * server/ never imports Electron: the desktop main process passes one in (ServeOptions.secretCodec).
 */
export interface SecretCodec {
  /** Written to profiles.json as `secret_protection`, e.g. "electron-safe-storage". */
  readonly protection: string;
  /** What keeps the key, for messages, e.g. "the system keychain (Electron safeStorage)". */
  readonly description: string;
  /** The secret as base64 text. */
  encrypt(secret: string): Promise<string>;
  decrypt(encrypted: string): Promise<string>;
}

/** A profile as profiles.json holds it: the secret in clear (`none`) or encrypted (base64). */
const storedProfileSchema = profileSchema
  .omit({ api_secret: true })
  .extend({
    secret_protection: z.string().min(1).default(UNENCRYPTED),
    api_secret: z.string().min(1).optional(),
    api_secret_encrypted: z.string().min(1).optional(),
    /** The organization of this sandbox whose profile it is; absent in files from before profiles had one (see claimUnownedProfiles). */
    owner_organization_uuid: z.string().min(1).optional(),
  })
  .refine((p) => (p.secret_protection === UNENCRYPTED ? p.api_secret !== undefined : p.api_secret_encrypted !== undefined), {
    message: 'a profile needs api_secret (secret_protection "none") or api_secret_encrypted',
  });
type StoredProfile = z.output<typeof storedProfileSchema>;

const fileSchema = z.object({ profiles: z.array(storedProfileSchema) });

/** The profile exists but its secret cannot be read here; the message says why and what to do. */
export class ProfileSecretError extends Error {
  override name = 'ProfileSecretError';
}

/**
 * Whose profiles to see: one organization's (the API: profiles are an organization's, like
 * everything else there), or, with `undefined`, all of the data folder's (the command line,
 * run by whoever owns the folder).
 */
export type ProfileOwner = string | undefined;

const ownedBy = (owner: ProfileOwner) => (p: StoredProfile) => owner === undefined || p.owner_organization_uuid === owner;

export function profilesPath(dataDir: string): string {
  return path.join(dataDir, PROFILES_FILE);
}

function readStored(dataDir: string): StoredProfile[] {
  const file = profilesPath(dataDir);
  if (!fs.existsSync(file)) return [];
  return fileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).profiles;
}

function writeStored(dataDir: string, profiles: StoredProfile[]): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = profilesPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  fs.chmodSync(file, 0o600);
}

function toPublic({
  api_secret: _secret,
  api_secret_encrypted: _encrypted,
  owner_organization_uuid: _owner,
  ...rest
}: StoredProfile): PublicProfile {
  return rest;
}

async function toStored(profile: Profile, codec: SecretCodec | undefined, owner: ProfileOwner): Promise<StoredProfile> {
  const { api_secret, ...rest } = profileSchema.parse(profile);
  const owned = { ...rest, ...(owner === undefined ? {} : { owner_organization_uuid: owner }) };
  if (!codec) return { ...owned, secret_protection: UNENCRYPTED, api_secret };
  return { ...owned, secret_protection: codec.protection, api_secret_encrypted: await codec.encrypt(api_secret) };
}

/**
 * Profiles live in <data-dir>/profiles.json, mode 0600. With a codec (the desktop app) the secret
 * is stored encrypted; without one (headless) in clear text, which callers warn about.
 */
export function listProfiles(dataDir: string, owner?: ProfileOwner): PublicProfile[] {
  return readStored(dataDir).filter(ownedBy(owner)).map(toPublic);
}

/**
 * Gives the profiles that have no owner (saved before profiles belonged to an organization, or by
 * `profile add` on the command line) to `organizationUuid`: the server passes the data folder's
 * first organization, the one set up with it. Returns their names.
 */
export function claimUnownedProfiles(dataDir: string, organizationUuid: string): string[] {
  const profiles = readStored(dataDir);
  const unowned = profiles.filter((p) => p.owner_organization_uuid === undefined);
  if (unowned.length === 0) return [];
  // An unowned profile is the newer one (profile add saves over a name): it replaces the organization's of that name.
  const names = new Set(unowned.map((p) => p.name));
  writeStored(
    dataDir,
    profiles
      .filter((p) => !(p.owner_organization_uuid === organizationUuid && names.has(p.name)))
      .map((p) => (p.owner_organization_uuid === undefined ? { ...p, owner_organization_uuid: organizationUuid } : p)),
  );
  return [...names];
}

/** One stored profile by name among the owner's; the command line's name must name one profile of the folder. */
function findStored(dataDir: string, name: string, owner: ProfileOwner): StoredProfile | undefined {
  const found = readStored(dataDir).filter((p) => p.name === name && ownedBy(owner)(p));
  if (found.length > 1) {
    throw new ProfileSecretError(
      `${found.length} organizations of this sandbox have a profile named "${name}". Use it from the GUI or the API (each organization sees its own), ` +
        'or rename one there.',
    );
  }
  return found[0];
}

/**
 * The profile with its secret in clear, for sending requests. A secret that this process cannot
 * decrypt is a ProfileSecretError that says so; a clear-text one read with a codec is saved again,
 * encrypted.
 */
export async function loadProfile(dataDir: string, name: string, codec?: SecretCodec, owner?: ProfileOwner): Promise<Profile | undefined> {
  const stored = findStored(dataDir, name, owner);
  if (!stored) return undefined;
  const { api_secret: _s, api_secret_encrypted: _e, secret_protection: protection, owner_organization_uuid: storedOwner, ...rest } = stored;
  if (protection === UNENCRYPTED && stored.api_secret !== undefined) {
    const profile = { ...rest, api_secret: stored.api_secret };
    if (codec) await saveProfile(dataDir, profile, codec, storedOwner);
    return profile;
  }
  if (!codec || codec.protection !== protection) {
    throw new ProfileSecretError(
      `The secret of profile "${name}" was encrypted by the QR Sandbox desktop app (${protection}), and ` +
        `${codec ? codec.description : 'the command line and the headless server'} cannot decrypt it. ` +
        `Use the profile in the desktop app, or save it again here: qr-sandbox profile add ${name} --url ${stored.base_url} --key API_KEY:API_SECRET ` +
        '(the secret is then stored unencrypted).',
    );
  }
  try {
    return { ...rest, api_secret: await codec.decrypt(stored.api_secret_encrypted ?? '') };
  } catch (error) {
    throw new ProfileSecretError(
      `The secret of profile "${name}" could not be decrypted with ${codec.description} (${error instanceof Error ? error.message : String(error)}). ` +
        'It was probably saved by another user or on another computer. Save the profile again with its key and secret.',
    );
  }
}

/** Saves the profile as the owner's, replacing the owner's profile of that name (only those of no organization without one). */
export async function saveProfile(dataDir: string, profile: Profile, codec?: SecretCodec, owner?: ProfileOwner): Promise<PublicProfile> {
  const stored = await toStored(profile, codec, owner);
  const same = (p: StoredProfile) => p.name === stored.name && p.owner_organization_uuid === owner;
  writeStored(dataDir, [...readStored(dataDir).filter((p) => !same(p)), stored]);
  return toPublic(stored);
}

export function removeProfile(dataDir: string, name: string, owner?: ProfileOwner): boolean {
  const target = findStored(dataDir, name, owner);
  if (!target) return false;
  const profiles = readStored(dataDir);
  const kept = profiles.filter((p) => !(p.name === name && p.owner_organization_uuid === target.owner_organization_uuid));
  if (kept.length === profiles.length) return false;
  writeStored(dataDir, kept);
  return true;
}

/** Encrypts every clear-text secret in the file with `codec` (the desktop app does this at start). Returns the names. */
export async function protectProfiles(dataDir: string, codec: SecretCodec): Promise<string[]> {
  const profiles = readStored(dataDir);
  const clear = profiles.filter((p) => p.secret_protection === UNENCRYPTED);
  if (clear.length === 0) return [];
  const protectedProfiles = await Promise.all(
    profiles.map(async (p) => {
      if (p.secret_protection !== UNENCRYPTED || p.api_secret === undefined) return p;
      const { api_secret, ...rest } = p;
      return { ...rest, secret_protection: codec.protection, api_secret_encrypted: await codec.encrypt(api_secret) };
    }),
  );
  writeStored(dataDir, protectedProfiles);
  return clear.map((p) => p.name);
}
