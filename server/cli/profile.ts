import { listProfiles, ProfileSecretError, profilesPath, removeProfile, saveProfile, UNENCRYPTED } from '../remote/profiles.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, dataDirOption, resolveDataDir, type Command } from './command.ts';

export const profileAddCommand: Command = {
  name: 'profile add',
  summary: 'Save a connection profile for a real deployment of the service (base URL and key).',
  usage: 'profile add NAME --url https://service.example --key API_KEY:API_SECRET [--organization UUID]',
  allowPositionals: true,
  options: { url: { type: 'string' }, key: { type: 'string' }, organization: { type: 'string' }, ...dataDirOption },
  help: {
    url: 'Base URL of the service (paths such as /api/qrcodes/bulk are added to it)',
    key: 'Credential as API_KEY:API_SECRET',
    organization:
      "Organization uuid to import into by default (on the remote service). The profile belongs to this sandbox's first organization",
    ...dataDirHelp,
  },
  async run(values, positionals) {
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new StartupError('profile add takes one NAME.');
    if (typeof values.url !== 'string' || typeof values.key !== 'string') throw new StartupError('profile add needs --url and --key.');
    const [apiKey, ...rest] = values.key.split(':');
    if (!apiKey || rest.length === 0) throw new StartupError('--key must be API_KEY:API_SECRET.');
    const dataDir = resolveDataDir(values);
    try {
      await saveProfile(dataDir, {
        name,
        base_url: values.url,
        api_key: apiKey,
        api_secret: rest.join(':'),
        ...(typeof values.organization === 'string' ? { organization_uuid: values.organization } : {}),
      });
    } catch (error) {
      throw new StartupError(`Profile not saved: ${(error as Error).message}`);
    }
    process.stderr.write(
      `Saved profile ${name}. Warning: its secret is stored unencrypted in ${profilesPath(dataDir)} (readable by you only); ` +
        "the desktop app encrypts secrets with the system keychain (Electron's safeStorage) instead.\n",
    );
    return 0;
  },
};

export const profileListCommand: Command = {
  name: 'profile list',
  summary: 'List saved connection profiles (never their secrets).',
  usage: 'profile list [--data-dir DIR]',
  options: { ...dataDirOption },
  help: { ...dataDirHelp },
  async run(values) {
    const profiles = listProfiles(resolveDataDir(values));
    if (profiles.length === 0)
      process.stderr.write('No profiles yet. Add one with: qr-sandbox profile add NAME --url URL --key KEY:SECRET\n');
    for (const p of profiles) process.stdout.write(`${p.name}\t${p.base_url}\t${p.api_key}\t${p.organization_uuid ?? ''}\n`);
    const encrypted = profiles.filter((p) => p.secret_protection !== UNENCRYPTED).map((p) => p.name);
    if (encrypted.length > 0) {
      process.stderr.write(
        `Saved by the desktop app, with the secret encrypted by the system keychain: ${encrypted.join(', ')}. ` +
          'Use them there, or save them again here with profile add to use them from the command line.\n',
      );
    }
    return 0;
  },
};

export const profileRemoveCommand: Command = {
  name: 'profile remove',
  summary: 'Delete a saved connection profile.',
  usage: 'profile remove NAME [--data-dir DIR]',
  allowPositionals: true,
  options: { ...dataDirOption },
  help: { ...dataDirHelp },
  async run(values, positionals) {
    const name = positionals[0];
    if (!name) throw new StartupError('profile remove takes a NAME.');
    let removed: boolean;
    try {
      removed = removeProfile(resolveDataDir(values), name);
    } catch (error) {
      if (error instanceof ProfileSecretError) throw new StartupError(error.message);
      throw error;
    }
    if (!removed) throw new StartupError(`No profile named "${name}".`);
    process.stderr.write(`Removed profile ${name}.\n`);
    return 0;
  },
};
