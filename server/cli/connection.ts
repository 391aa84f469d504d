import fs from 'node:fs';
import path from 'node:path';
import type { Session } from '../auth/schemas.ts';
import { LOCK_FILE } from '../data-dir/instance-lock.ts';
import { CREDENTIALS_FILE } from '../orgs/credentials-file.ts';
import type { OrganizationCredentials } from '../orgs/organizations.ts';
import { loadProfile, ProfileSecretError } from '../remote/profiles.ts';
import { ServiceClient, ServiceError } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { resolveDataDir, type Options, type Values } from './command.ts';

export const URL_ENV = 'QR_SANDBOX_URL';
export const KEY_ENV = 'QR_SANDBOX_KEY';

export const connectionOptions: Options = {
  profile: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  organization: { type: 'string' },
};

export const connectionHelp = {
  profile: 'Send to the service of a saved profile (see: qr-sandbox profile add)',
  url: `Base URL of the service. Default: $${URL_ENV}, else the server running on --data-dir`,
  key: `Credential as API_KEY:API_SECRET. Default: $${KEY_ENV}, else the credentials.json of --data-dir`,
  organization: "Organization uuid. Default: the profile's, the data dir's, or the credential's own",
};

/** The precedence, for help texts and errors. */
export const CONNECTION_ORDER = `--profile NAME, else --url/--key, else $${URL_ENV}/$${KEY_ENV}, else the server running on --data-dir`;

export interface Target {
  client: ServiceClient;
  organizationUuid: string | undefined;
  /** How to name the target in messages. */
  label: string;
}

function parseKey(given: string, source: string): { apiKey: string; apiSecret: string } {
  const [apiKey, ...rest] = given.split(':');
  if (!apiKey || rest.length === 0) throw new StartupError(`${source} must be API_KEY:API_SECRET.`);
  return { apiKey, apiSecret: rest.join(':') };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL the server running on this data folder wrote into its lock file; a StartupError saying how to start one otherwise. */
export function runningServerUrl(dataDir: string): string {
  const start = `Start one with: qr-sandbox serve --data-dir ${dataDir} (or name a server: ${CONNECTION_ORDER}).`;
  let holder: { pid?: unknown; url?: unknown };
  try {
    holder = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as typeof holder;
  } catch {
    throw new StartupError(`No QR Sandbox server is running with the data folder ${dataDir}. ${start}`);
  }
  if (typeof holder.pid === 'number' && !isRunning(holder.pid)) {
    throw new StartupError(`The QR Sandbox server of ${dataDir} (pid ${holder.pid}) is no longer running. ${start}`);
  }
  if (typeof holder.url !== 'string') {
    throw new StartupError(`The QR Sandbox server of ${dataDir} is still starting; run this again in a moment.`);
  }
  return holder.url;
}

function dataDirCredentials(dataDir: string): OrganizationCredentials {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if (!fs.existsSync(file)) {
    throw new StartupError(
      `No credential: pass --profile NAME or --key KEY:SECRET, set ${KEY_ENV}, or use the --data-dir of a sandbox that has ${CREDENTIALS_FILE}.`,
    );
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as OrganizationCredentials;
}

/**
 * The service a command talks to. A saved profile when --profile is given; otherwise the URL and
 * the key each come from the first that gives it: the option (--url, --key), the environment
 * (QR_SANDBOX_URL, QR_SANDBOX_KEY), the data folder (the running server's URL from its lock file,
 * the credential from credentials.json).
 */
export async function resolveTarget(values: Values): Promise<Target> {
  const dataDir = resolveDataDir(values);
  const organization = typeof values.organization === 'string' ? values.organization : undefined;
  if (typeof values.profile === 'string') {
    let profile;
    try {
      profile = await loadProfile(dataDir, values.profile);
    } catch (error) {
      if (error instanceof ProfileSecretError) throw new StartupError(error.message);
      throw error;
    }
    if (!profile) throw new StartupError(`No profile named "${values.profile}" in ${dataDir}. List them with: qr-sandbox profile list`);
    return {
      client: new ServiceClient({ baseUrl: profile.base_url, apiKey: profile.api_key, apiSecret: profile.api_secret }),
      organizationUuid: organization ?? profile.organization_uuid,
      label: `profile ${profile.name} (${profile.base_url})`,
    };
  }
  const envUrl = process.env[URL_ENV] || undefined;
  const envKey = process.env[KEY_ENV] || undefined;
  const baseUrl = typeof values.url === 'string' ? values.url : (envUrl ?? runningServerUrl(dataDir));
  const key = typeof values.key === 'string' ? parseKey(values.key, '--key') : envKey !== undefined ? parseKey(envKey, KEY_ENV) : undefined;
  if (key) return { client: new ServiceClient({ baseUrl, ...key }), organizationUuid: organization, label: baseUrl };
  const credentials = dataDirCredentials(dataDir);
  return {
    client: new ServiceClient({ baseUrl, apiKey: credentials.api_key, apiSecret: credentials.api_secret }),
    organizationUuid: organization ?? credentials.organization_uuid,
    label: `the sandbox at ${baseUrl}`,
  };
}

/** The target's organization: the one named, else the credential's own (GET /api/session, which only QR Sandbox answers). */
export async function organizationOf(target: Target): Promise<string> {
  if (target.organizationUuid) return target.organizationUuid;
  try {
    const session = await target.client.json<Session>('/api/session');
    return session.organization_uuid;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      throw new StartupError(
        `Which organization? ${target.label} does not say which organization the key belongs to (GET /api/session is QR Sandbox's): pass --organization UUID or save it in the profile.`,
      );
    }
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
}
