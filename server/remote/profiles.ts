import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type Profile, profileSchema } from './schemas.ts';

export { type Profile, profileSchema };

export const PROFILES_FILE = 'profiles.json';

const fileSchema = z.object({ profiles: z.array(profileSchema) });

export function profilesPath(dataDir: string): string {
  return path.join(dataDir, PROFILES_FILE);
}

/**
 * Profiles live in <data-dir>/profiles.json, mode 0600. The secret is stored in clear there
 * (headless has no OS keychain); the desktop app keeps it with Electron's safeStorage instead.
 */
export function readProfiles(dataDir: string): Profile[] {
  const file = profilesPath(dataDir);
  if (!fs.existsSync(file)) return [];
  return fileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).profiles;
}

export function writeProfiles(dataDir: string, profiles: Profile[]): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = profilesPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  fs.chmodSync(file, 0o600);
}

export function saveProfile(dataDir: string, profile: Profile): void {
  writeProfiles(dataDir, [...readProfiles(dataDir).filter((p) => p.name !== profile.name), profileSchema.parse(profile)]);
}

export function removeProfile(dataDir: string, name: string): boolean {
  const profiles = readProfiles(dataDir);
  const kept = profiles.filter((p) => p.name !== name);
  if (kept.length === profiles.length) return false;
  writeProfiles(dataDir, kept);
  return true;
}
