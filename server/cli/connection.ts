import fs from 'node:fs';
import path from 'node:path';
import { CREDENTIALS_FILE } from '../orgs/bootstrap.ts';
import type { OrganizationCredentials } from '../orgs/organizations.ts';
import { loadProfile, ProfileSecretError } from '../remote/profiles.ts';
import { ServiceClient } from '../remote/service-client.ts';
import { DEFAULT_PORT } from '../server.ts';
import { StartupError } from '../startup-error.ts';
import { resolveDataDir, type Options, type Values } from './command.ts';

export const connectionOptions: Options = {
  profile: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  organization: { type: 'string' },
};

export const connectionHelp = {
  profile: 'Send to the service of a saved profile (see: qr-sandbox profile add)',
  url: `Base URL of the service. Default: the local sandbox, http://127.0.0.1:${DEFAULT_PORT}`,
  key: 'Credential as API_KEY:API_SECRET. Default: the profile, or the sandbox credentials.json',
  organization: "Organization uuid. Default: the profile's, or the sandbox demo organization",
};

export interface Target {
  client: ServiceClient;
  organizationUuid: string | undefined;
  /** How to name the target in messages. */
  label: string;
}

/** The service a command talks to: a saved profile, explicit --url/--key, or the local sandbox. */
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
  const baseUrl = typeof values.url === 'string' ? values.url : `http://127.0.0.1:${DEFAULT_PORT}`;
  if (typeof values.key === 'string') {
    const [apiKey, ...rest] = values.key.split(':');
    if (!apiKey || rest.length === 0) throw new StartupError('--key must be API_KEY:API_SECRET.');
    return { client: new ServiceClient({ baseUrl, apiKey, apiSecret: rest.join(':') }), organizationUuid: organization, label: baseUrl };
  }
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if (!fs.existsSync(file)) {
    throw new StartupError(
      `No credential: pass --profile NAME or --key KEY:SECRET, or --data-dir of a sandbox that has ${CREDENTIALS_FILE}.`,
    );
  }
  const credentials = JSON.parse(fs.readFileSync(file, 'utf8')) as OrganizationCredentials;
  return {
    client: new ServiceClient({ baseUrl, apiKey: credentials.api_key, apiSecret: credentials.api_secret }),
    organizationUuid: organization ?? credentials.organization_uuid,
    label: `the sandbox at ${baseUrl}`,
  };
}
