import { DEMO_EVENT_INTERVAL_MS } from '../demo/event-stream.ts';
import { startDemoMode, type DemoMode } from '../demo/demo-mode.ts';
import { startServer, DEFAULT_HOST, DEFAULT_PORT } from '../server.ts';
import { freshWorkerBundle } from '../imports/workers/worker-bundle.ts';
import { StartupError } from '../startup-error.ts';
import { APP_VERSION } from '../version.ts';
import { dataDirHelp, dataDirOption, resolveDataDir, type Command } from './command.ts';
import { FAILED_AUTH_ADDRESS_LIMIT, FAILED_AUTH_LIMIT } from '../auth/throttle.ts';
import {
  DEFAULT_INBOX_BYTES_PER_MINUTE,
  DEFAULT_INBOX_FORWARD_QUEUE,
  DEFAULT_INBOX_WAITS_PER_KEY,
  DEFAULT_INBOX_WAITS_PER_ORGANIZATION,
  DEFAULT_INBOX_FORWARDS,
  DEFAULT_INBOX_MAX_BODY_BYTES,
  DEFAULT_INBOX_MAX_MESSAGES,
} from '../receiver/limits.ts';
import {
  DEFAULT_IMPORT_WORKERS,
  DEFAULT_MAX_UPLOAD_MB,
  DEFAULT_UPLOAD_READ_SECONDS,
  DEFAULT_UPLOAD_READERS,
  DEFAULT_WORKER_IDLE_SECONDS,
} from '../imports/settings.ts';
import { DEFAULT_IMPORT_LIMITS, LIMIT_FLAGS, limitsFromFlags, type ImportLimits } from '../imports/limits.ts';
import { DEFAULT_LOG_ROTATION, type LogRotation } from '../log-file.ts';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ConnectionLimits,
} from '../http/connection-limits.ts';
import { logFile } from '../logger.ts';
import { CREDENTIALS_FILE, DEMO_ORGANIZATION_NAME } from '../orgs/bootstrap.ts';
import path from 'node:path';
import { retryScheduleNameSchema, type RetryScheduleName } from '../webhooks/retry-schedule.ts';
import { stopSignal } from './stop-signals.ts';

function parseDemoInterval(value: string | undefined): number {
  if (value === undefined) return DEMO_EVENT_INTERVAL_MS;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0.2 || seconds > 3600)
    throw new StartupError(`--demo-interval must be seconds from 0.2 to 3600, not "${value}".`);
  return seconds * 1000;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`--port must be a whole number from 0 to 65535, not "${value}".`);
  return port;
}

function parseRetrySchedule(value: string | undefined): RetryScheduleName {
  if (value === undefined) return 'standard';
  const parsed = retryScheduleNameSchema.safeParse(value);
  if (!parsed.success) throw new StartupError(`--retry-schedule must be standard or fast, not "${value}".`);
  return parsed.data;
}

function parseMaxUploadMb(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_UPLOAD_MB;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 100_000)
    throw new StartupError(`--max-upload-mb must be a number of megabytes above 0, not "${value}".`);
  return mb;
}

/** A whole number flag from min to max, or undefined when not given. */
function parseWholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new StartupError(`--${flag} must be a whole number from ${min} to ${max}, not "${value}".`);
  return n;
}

/** --log-max-mb and --log-files, else $QR_SANDBOX_LOG_MAX_MB and $QR_SANDBOX_LOG_FILES, else the defaults. */
function parseLogRotation(values: Record<string, unknown>): LogRotation {
  const maxMb = (values['log-max-mb'] as string | undefined) ?? process.env.QR_SANDBOX_LOG_MAX_MB;
  const mb = maxMb === undefined ? DEFAULT_LOG_ROTATION.maxBytes / 1024 / 1024 : Number(maxMb);
  if (!Number.isFinite(mb) || mb < 0.001 || mb > 100_000)
    throw new StartupError(`--log-max-mb (QR_SANDBOX_LOG_MAX_MB) must be a number of megabytes from 0.001 to 100000, not "${maxMb}".`);
  const files =
    parseWholeNumber('log-files', (values['log-files'] as string | undefined) ?? process.env.QR_SANDBOX_LOG_FILES, 1, 1000) ??
    DEFAULT_LOG_ROTATION.files;
  return { maxBytes: Math.round(mb * 1024 * 1024), files };
}

function parseConnectionLimits(values: Record<string, unknown>): Partial<ConnectionLimits> {
  const flag = (name: string, min: number, max: number) => parseWholeNumber(name, values[name] as string | undefined, min, max);
  const requestTimeout = flag('request-timeout', 1, 86_400);
  return {
    maxConnections: flag('max-connections', 1, 1_000_000),
    maxConnectionsPerAddress: flag('max-connections-per-address', 1, 1_000_000),
    requestTimeoutMs: requestTimeout === undefined ? undefined : requestTimeout * 1000,
  };
}

function parseImportWorkers(value: string | undefined): number {
  if (value === undefined) return DEFAULT_IMPORT_WORKERS;
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > 32)
    throw new StartupError(`--import-workers must be a whole number from 1 to 32, not "${value}".`);
  return workers;
}

function parseImportLimits(values: Record<string, unknown>): Partial<ImportLimits> {
  const limits = limitsFromFlags(values);
  if (typeof limits === 'string') throw new StartupError(limits);
  return limits;
}

const limitFlags = Object.values(LIMIT_FLAGS);
const limitOptions = Object.fromEntries(limitFlags.map(({ flag }) => [flag, { type: 'string' as const }]));
const limitHelp = Object.fromEntries(
  (Object.entries(LIMIT_FLAGS) as [keyof ImportLimits, (typeof LIMIT_FLAGS)[keyof ImportLimits]][]).map(
    ([name, { flag, help, toSetting }]) => [flag, `${help}. Default ${DEFAULT_IMPORT_LIMITS[name] / toSetting}`],
  ),
);

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the QR Sandbox server (API, GUI and webhook inbox) until Ctrl+C.',
  usage: 'serve [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--demo] [--retry-schedule standard|fast] [--max-upload-mb 256]',
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'log-level': { type: 'string' },
    'log-max-mb': { type: 'string' },
    'log-files': { type: 'string' },
    'retry-schedule': { type: 'string' },
    'max-upload-mb': { type: 'string' },
    'inbox-max-messages': { type: 'string' },
    'inbox-max-body-kb': { type: 'string' },
    'inbox-max-mb-per-minute': { type: 'string' },
    'inbox-forwards': { type: 'string' },
    'inbox-forward-queue': { type: 'string' },
    'inbox-waits-per-key': { type: 'string' },
    'inbox-waits-per-organization': { type: 'string' },
    'auth-max-failures': { type: 'string' },
    'auth-max-failures-per-address': { type: 'string' },
    'import-workers': { type: 'string' },
    'upload-readers': { type: 'string' },
    'upload-read-seconds': { type: 'string' },
    'worker-idle-seconds': { type: 'string' },
    'max-connections': { type: 'string' },
    'max-connections-per-address': { type: 'string' },
    'request-timeout': { type: 'string' },
    demo: { type: 'boolean' },
    'demo-interval': { type: 'string' },
    ...limitOptions,
    ...dataDirOption,
  },
  help: {
    port: `Port to listen on (0 picks a free one). Default ${DEFAULT_PORT}`,
    host: `Address to bind. Default ${DEFAULT_HOST} (this machine only)`,
    'allowed-host': 'Extra Host header to accept, e.g. a tunnel name (repeatable)',
    'log-level': 'Log detail: error, warn, info, debug. Default info',
    'log-max-mb': `Size of the log file before it rotates, in MB (env QR_SANDBOX_LOG_MAX_MB). Default ${DEFAULT_LOG_ROTATION.maxBytes / 1024 / 1024}`,
    'log-files': `Log files kept, the current one included (env QR_SANDBOX_LOG_FILES). Default ${DEFAULT_LOG_ROTATION.files}`,
    'retry-schedule':
      'Webhook retries: standard (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) or fast (1 s, 2 s, 5 s, 10 s, 30 s). Default standard',
    'max-upload-mb': `Largest import upload in MB. Default ${DEFAULT_MAX_UPLOAD_MB}`,
    'inbox-max-messages': `Messages each inbox keeps; a new one past it deletes the oldest. Default ${DEFAULT_INBOX_MAX_MESSAGES}`,
    'auth-max-failures': `Wrong secrets per minute for one API key from one address before 429 (the right secret always passes). Default ${FAILED_AUTH_LIMIT}`,
    'auth-max-failures-per-address': `Wrong credentials per minute from one address, any key, before 429. Default ${FAILED_AUTH_ADDRESS_LIMIT}`,
    'inbox-max-body-kb': `Largest request body an inbox stores, in KB; larger ones get 413. Default ${DEFAULT_INBOX_MAX_BODY_BYTES / 1024}`,
    'inbox-max-mb-per-minute': `Request bytes each inbox takes per minute, in MB; past it 429 with Retry-After (not stored). Default ${DEFAULT_INBOX_BYTES_PER_MINUTE / 1024 / 1024}`,
    'inbox-forwards': `Forwards (forward_to) in flight at once, over all inboxes. Default ${DEFAULT_INBOX_FORWARDS}`,
    'inbox-forward-queue': `Forwards waiting for those; past it a message is not forwarded and says so. Default ${DEFAULT_INBOX_FORWARD_QUEUE}`,
    'inbox-waits-per-key': `Waits for inbox messages (long-polls) one API key holds open at once; past it 429 with Retry-After. Default ${DEFAULT_INBOX_WAITS_PER_KEY}`,
    'inbox-waits-per-organization': `The same for all keys of one organization. Default ${DEFAULT_INBOX_WAITS_PER_ORGANIZATION}`,
    'import-workers': `Imports that run at once, each in its own worker process. Default ${DEFAULT_IMPORT_WORKERS}`,
    'upload-readers': `Processes that read uploads before an import starts (previews, headers, draft checks); one organization reads in one at a time. Default ${DEFAULT_UPLOAD_READERS}`,
    'upload-read-seconds': `Seconds a preview, an import's header read or a draft's row check may take, its wait for a reader included. Default ${DEFAULT_UPLOAD_READ_SECONDS}`,
    'worker-idle-seconds': `Seconds an import worker or upload reader process with nothing to do stays before it ends (the next import or upload starts one again, in about half a second). Default ${DEFAULT_WORKER_IDLE_SECONDS}`,
    'max-connections': `Connections open at once; past it, the oldest that has not sent a request is closed, then the oldest held wait for inbox messages, else the new one. Default ${DEFAULT_MAX_CONNECTIONS} (at most half the open-file limit)`,
    'max-connections-per-address': `Connections open at once from one address (all loopback addresses are one), the same way. Default ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}`,
    'request-timeout': `Seconds for a whole request, upload included, to arrive. Default ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}`,
    demo: 'Fill an empty data dir with a demo organization and keep simulated events coming',
    'demo-interval': 'Seconds between simulated events in demo mode. Default 5',
    ...limitHelp,
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
      logRotation: parseLogRotation(values),
      webhookRetrySchedule: parseRetrySchedule(values['retry-schedule'] as string | undefined),
      inboxLimits: {
        maxMessages: parseWholeNumber('inbox-max-messages', values['inbox-max-messages'] as string | undefined, 1, 10_000_000),
        maxBodyBytes:
          (parseWholeNumber('inbox-max-body-kb', values['inbox-max-body-kb'] as string | undefined, 1, 1024 * 1024) ??
            DEFAULT_INBOX_MAX_BODY_BYTES / 1024) * 1024,
        bytesPerMinute:
          (parseWholeNumber('inbox-max-mb-per-minute', values['inbox-max-mb-per-minute'] as string | undefined, 1, 1024 * 1024) ??
            DEFAULT_INBOX_BYTES_PER_MINUTE / 1024 / 1024) *
          1024 *
          1024,
        forwards: parseWholeNumber('inbox-forwards', values['inbox-forwards'] as string | undefined, 1, 1000),
        forwardQueue: parseWholeNumber('inbox-forward-queue', values['inbox-forward-queue'] as string | undefined, 0, 1_000_000),
        waitsPerKey: parseWholeNumber('inbox-waits-per-key', values['inbox-waits-per-key'] as string | undefined, 1, 100_000),
        waitsPerOrganization: parseWholeNumber(
          'inbox-waits-per-organization',
          values['inbox-waits-per-organization'] as string | undefined,
          1,
          100_000,
        ),
      },
      authThrottle: {
        perKey: parseWholeNumber('auth-max-failures', values['auth-max-failures'] as string | undefined, 1, 1_000_000),
        perAddress: parseWholeNumber(
          'auth-max-failures-per-address',
          values['auth-max-failures-per-address'] as string | undefined,
          1,
          1_000_000,
        ),
      },
      imports: {
        maxUploadBytes: parseMaxUploadMb(values['max-upload-mb'] as string | undefined) * 1024 * 1024,
        workers: parseImportWorkers(values['import-workers'] as string | undefined),
        readers: parseWholeNumber('upload-readers', values['upload-readers'] as string | undefined, 1, 32) ?? DEFAULT_UPLOAD_READERS,
        readDeadlineMs:
          (parseWholeNumber('upload-read-seconds', values['upload-read-seconds'] as string | undefined, 1, 86_400) ??
            DEFAULT_UPLOAD_READ_SECONDS) * 1000,
        workerIdleMs:
          (parseWholeNumber('worker-idle-seconds', values['worker-idle-seconds'] as string | undefined, 1, 86_400) ??
            DEFAULT_WORKER_IDLE_SECONDS) * 1000,
        limits: { ...DEFAULT_IMPORT_LIMITS, ...parseImportLimits(values) },
        startReaderEarly: true,
        workerEntry: freshWorkerBundle() ?? undefined,
      },
      connections: parseConnectionLimits(values),
      ...(values.demo ? { organizationName: DEMO_ORGANIZATION_NAME } : {}),
    });
    const { credentials, url } = server;
    const lines = [
      `QR Sandbox ${APP_VERSION} is running at ${url}`,
      `  API reference  ${url}/api/docs`,
      credentials
        ? `  Sign in        ${url}/#key=${credentials.api_key}:${credentials.api_secret}`
        : `  Sign in        ${path.join(dataDir, CREDENTIALS_FILE)} is missing; create a key with: qr-sandbox org create --name NAME`,
      ...(server.ctx.config.webhookRetrySchedule === 'fast' ? ['  Webhooks       fast retry schedule (1 s, 2 s, 5 s, 10 s, 30 s)'] : []),
      `  Data folder    ${dataDir}`,
      `  Credential     ${path.join(dataDir, CREDENTIALS_FILE)}`,
      `  Log            ${logFile(dataDir)}`,
      'Press Ctrl+C to stop.',
    ];
    let demo: DemoMode | undefined;
    // Listening before "running at" is printed: whoever reads that line may stop the server at once.
    const signal = stopSignal();
    const stopped = signal.stopped.then(async (name) => {
      process.stdout.write(`\n${name}: finishing open requests and closing the database...\n`);
      await (demo?.stop() ?? Promise.resolve()).catch(() => undefined);
      await server.close().catch(() => undefined);
    });
    process.stdout.write(`${lines.join('\n')}\n`);

    if (values.demo) {
      process.stdout.write('Demo mode: preparing demo data...\n');
      try {
        demo = await startDemoMode(server, parseDemoInterval(values['demo-interval'] as string | undefined));
        process.stdout.write(`${demo.summary.map((line) => `  ${line}`).join('\n')}\n`);
      } catch (error) {
        process.stdout.write(`  Demo data could not be prepared: ${(error as Error).message}\n`);
      }
    }

    await stopped;
    signal.dispose();
    process.stdout.write('Stopped.\n');
    return 0;
  },
};
