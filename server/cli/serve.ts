import { startServer, DEFAULT_HOST, DEFAULT_PORT } from '../server.ts';
import { StartupError } from '../startup-error.ts';
import { APP_VERSION } from '../version.ts';
import { dataDirHelp, dataDirOption, resolveDataDir, type Command } from './command.ts';
import { DEFAULT_MAX_UPLOAD_MB } from '../imports/runtime.ts';
import { logFile } from '../logger.ts';
import { CREDENTIALS_FILE } from '../orgs/bootstrap.ts';
import path from 'node:path';

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StartupError(`--port must be a whole number from 0 to 65535, not "${value}".`);
  return port;
}

function parseMaxUploadMb(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_UPLOAD_MB;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 100_000) throw new StartupError(`--max-upload-mb must be a number of megabytes above 0, not "${value}".`);
  return mb;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the QR Sandbox server (API, GUI and webhook inbox) until Ctrl+C.',
  usage: 'serve [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--max-upload-mb 256]',
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'log-level': { type: 'string' },
    'max-upload-mb': { type: 'string' },
    ...dataDirOption,
  },
  help: {
    port: `Port to listen on (0 picks a free one). Default ${DEFAULT_PORT}`,
    host: `Address to bind. Default ${DEFAULT_HOST} (this machine only)`,
    'allowed-host': 'Extra Host header to accept, e.g. a tunnel name (repeatable)',
    'log-level': 'Log detail: error, warn, info, debug. Default info',
    'max-upload-mb': `Largest import upload in MB. Default ${DEFAULT_MAX_UPLOAD_MB}`,
    ...dataDirHelp,
  },
  async run(values) {
    const dataDir = resolveDataDir(values);
    const server = await startServer({
      dataDir,
      port: parsePort(values.port as string | undefined),
      host: (values.host as string | undefined) ?? DEFAULT_HOST,
      allowedHosts: (values['allowed-host'] as string[] | undefined) ?? [],
      logLevel: (values['log-level'] as string | undefined) ?? 'info',
      imports: { maxUploadBytes: parseMaxUploadMb(values['max-upload-mb'] as string | undefined) * 1024 * 1024 },
    });
    const { credentials, url } = server;
    const lines = [
      `QR Sandbox ${APP_VERSION} is running at ${url}`,
      `  API reference  ${url}/api/docs`,
      credentials
        ? `  Sign in        ${url}/#key=${credentials.api_key}:${credentials.api_secret}`
        : `  Sign in        ${path.join(dataDir, CREDENTIALS_FILE)} is missing; create a key with: qr-sandbox org create --name NAME`,
      `  Data folder    ${dataDir}`,
      `  Credential     ${path.join(dataDir, CREDENTIALS_FILE)}`,
      `  Log            ${logFile(dataDir)}`,
      'Press Ctrl+C to stop.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);

    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        process.stdout.write(`\n${signal}: finishing open requests and closing the database...\n`);
        server.close().then(resolve, resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    process.stdout.write('Stopped.\n');
    return 0;
  },
};
