import http from 'node:http';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from './app.ts';
import type { AppContext } from './context.ts';
import type { ServerConfig } from './server-config.ts';
import { LOCK_FILE, lockDataDir, OS_LOCK_FILE } from './data-dir/instance-lock.ts';
import { DiskSpace, type FreeBytes } from './data-dir/disk-space.ts';
import { secureDataDir } from './data-dir/private-files.ts';
import { keepSpaceReserve, releaseSpaceReserve, SPACE_RESERVE_FILE } from './data-dir/space-reserve.ts';
import { CountThread } from './db/count-thread-client.ts';
import { DATABASE_FILE, databasePath, type Db } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { checkDatabaseFile } from './db/start-check.ts';
import { ServerCheckpoints } from './db/wal/server-checkpoints.ts';
import { connectionLimits, limitConnections, timeoutOptions, type ConnectionLimits } from './http/connection-limits.ts';
import { ImportRuntime } from './imports/workers/runtime.ts';
import { defaultImportSettings, UPLOADS_DIR, type ImportSettings } from './imports/settings.ts';
import { BackgroundServices } from './lifecycle/background-services.ts';
import { LiveBus } from './live/bus.ts';
import type { LiveStreams } from './live/routes.ts';
import type { LogRotation, WriteSync } from './log-file.ts';
import { createLogger } from './logger.ts';
import { CREDENTIALS_FILE, ensureDemoOrganization } from './orgs/bootstrap.ts';
import { PROFILES_FILE } from './remote/profiles.ts';
import { encryptSavedProfiles } from './remote/protect-profiles.ts';
import type { SecretCodec } from './remote/profiles.ts';
import { stopReceiver } from './receiver/runtime.ts';
import type { OrganizationCredentials } from './orgs/organizations.ts';
import { StartupError } from './startup-error.ts';
import type { Clock } from './webhooks/delivery-clock.ts';
import { Dispatcher } from './webhooks/dispatcher.ts';
import { OutboxSignal } from './webhooks/outbox-signal.ts';

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
const SHUTDOWN_GRACE_MS = 10_000;

export interface ServeOptions {
  dataDir: string;
  port?: number;
  host?: string;
  allowedHosts?: string[];
  logLevel?: string;
  /** Log file size and files kept (default 10 MiB, 5 files: server/log-file.ts). */
  logRotation?: LogRotation;
  /** Default webhook retry schedule (serve --retry-schedule). */
  webhookRetrySchedule?: 'standard' | 'fast';
  /** Timeout of one webhook delivery attempt (tests); default 15 s. */
  webhookTimeoutMs?: number;
  /** Connect timeout of one webhook delivery attempt (tests); default 5 s. */
  webhookConnectTimeoutMs?: number;
  /** The webhook dispatcher's clock (tests); the machine's by default. */
  webhookClock?: Clock;
  /** Messages kept per inbox and largest inbox body (defaults in server/receiver/limits.ts). */
  inboxLimits?: ServerConfig['inboxLimits'];
  /** Wrong credentials allowed per window (defaults in server/auth/throttle.ts). */
  authThrottle?: ServerConfig['authThrottle'];
  /** How outgoing requests resolve host names (tests); the system resolver by default. */
  hostResolver?: ServerConfig['hostResolver'];
  /** Upload cap, sync row cap, geocoder module and import workers (defaults in server/imports/settings.ts). */
  imports?: Partial<Omit<ImportSettings, 'dataDir'>>;
  /** Name of the organization created on an empty data dir; default "My Organization" (`serve --demo`: "Demo Organization"). */
  organizationName?: string;
  /** Encrypts connection profile secrets (the desktop app passes one built on Electron's safeStorage). */
  secretCodec?: SecretCodec;
  /** Connection caps and timeouts (defaults in server/http/connection-limits.ts). */
  connections?: Partial<ConnectionLimits>;
  /** How the free space is measured and the log written (tests make the disk look full); statfs and fs.writeSync by default. */
  diskAccess?: { freeBytes?: FreeBytes; writeLog?: WriteSync };
}

export interface RunningServer {
  /** http://<host>:<port>, the address clients use. */
  url: string;
  port: number;
  ctx: AppContext;
  app: Express;
  httpServer: http.Server;
  /** The demo organization's credential from credentials.json, when that file exists. */
  credentials: OrganizationCredentials | null;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the data dir, migrates, seeds the demo organization on first start, and listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const privacy = secureDataDir(options.dataDir, {
    marker: DATABASE_FILE,
    files: [
      DATABASE_FILE,
      `${DATABASE_FILE}-wal`,
      `${DATABASE_FILE}-shm`,
      CREDENTIALS_FILE,
      PROFILES_FILE,
      LOCK_FILE,
      OS_LOCK_FILE,
      SPACE_RESERVE_FILE,
    ],
    dirs: ['logs', UPLOADS_DIR],
  });
  const lock = lockDataDir(options.dataDir);
  const disk = new DiskSpace(options.dataDir, options.diskAccess?.freeBytes);
  let db: Db;
  try {
    checkDatabaseFile(databasePath(options.dataDir), path.join(options.dataDir, CREDENTIALS_FILE), {
      diskFull: (error) => disk.recognise(error),
      makeRoom: () => releaseSpaceReserve(options.dataDir),
    });
    db = await openDatabase(options.dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  // A reserve the start's database check gave up on a full disk is made again once space is back (DiskSpace), not now.
  if (!disk.full) keepSpaceReserve(options.dataDir);
  const logSink = createLogger(options.dataDir, options.logLevel, options.logRotation, {
    write: options.diskAccess?.writeLog,
    onWriteFailed: (error) => disk.recognise(error),
  });
  const logger = logSink.logger;
  if (privacy.folderLeftAsIs) {
    logger.warn(
      { data_dir: options.dataDir },
      'the data folder holds files of other programs and other users may open it: its mode was left as is, only QR Sandbox files were made private (0600); give QR Sandbox a folder of its own',
    );
  }
  const live = new LiveBus();
  const imports = new ImportRuntime({
    db,
    logger,
    live,
    settings: defaultImportSettings(options.dataDir, options.imports),
    onDiskFull: () => disk.markFull(),
  });
  const ctx: AppContext = {
    db,
    logger,
    live,
    imports,
    counts: new CountThread(db.file),
    disk,
    wal: new ServerCheckpoints({ db, logger, importRunning: () => imports.busy > 0, onError: (error) => disk.recognise(error) }),
    outbox: new OutboxSignal(),
    secretCodec: options.secretCodec,
    config: {
      dataDir: options.dataDir,
      host,
      port: options.port ?? DEFAULT_PORT,
      allowedHosts: options.allowedHosts ?? [],
      webhookRetrySchedule: options.webhookRetrySchedule,
      webhookTimeoutMs: options.webhookTimeoutMs,
      webhookConnectTimeoutMs: options.webhookConnectTimeoutMs,
      inboxLimits: options.inboxLimits,
      authThrottle: options.authThrottle,
      hostResolver: options.hostResolver,
    },
  };
  const dispatcher = new Dispatcher(ctx, { clock: options.webhookClock });
  let liveStreams: LiveStreams | undefined;
  const services = new BackgroundServices(logger, [
    { name: 'imports', start: () => imports.recover(), stop: () => imports.stop() },
    { name: 'WAL checkpoints', start: () => ctx.wal.start(), stop: () => ctx.wal.stop() },
    { name: 'webhook dispatcher', start: () => dispatcher.start(), stop: () => dispatcher.stop() },
    { name: 'receiver', stop: () => stopReceiver(ctx) },
    { name: 'live streams', stop: () => liveStreams?.endAll() },
    { name: 'count thread', stop: () => ctx.counts.stop() },
  ]);
  try {
    const credentials = await ensureDemoOrganization(db, options.dataDir, options.organizationName);
    if (options.secretCodec) await encryptSavedProfiles(options.dataDir, options.secretCodec, logger);
    const built = buildApp(ctx);
    liveStreams = built.liveStreams;
    const { app, listener } = built;
    const limits = connectionLimits(options.connections);
    const server = http.createServer(timeoutOptions(limits), listener);
    limitConnections(server, limits);
    await listen(server, ctx.config.port, host);
    ctx.config.port = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${ctx.config.port}`;
    lock.listening(url);
    logger.info({ url, max_connections: limits.maxConnections, max_connections_per_address: limits.maxConnectionsPerAddress }, 'listening');
    await services.start();

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        logger.info('shutting down');
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Import workers stop after their current batch (the tasks resume on the next start).
        const servicesStopped = services.stop();
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearTimeout(force);
        await servicesStopped;
        await db.close();
        logger.info('stopped');
        logSink.close();
        lock.release();
      })());
    return { url, port: ctx.config.port, ctx, app, httpServer: server, credentials, close };
  } catch (error) {
    await services.stop();
    await db.close();
    logSink.close();
    lock.release();
    throw error;
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new StartupError(`Port ${port} on ${host} is already in use. Choose another with --port.`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new StartupError(`Cannot listen on ${host}: no such address on this machine.`));
      else if (error.code === 'EACCES') reject(new StartupError(`Not allowed to listen on port ${port}. Use a port above 1023.`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}
