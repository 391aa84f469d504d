import type { Logger } from 'pino';
import type { Db } from './db/database.ts';
import type { ImportRuntime } from './imports/runtime.ts';
import type { LiveBus } from './live/bus.ts';

export interface ServerConfig {
  dataDir: string;
  host: string;
  /** The port actually bound (known after listen). */
  port: number;
  /** Extra Host header names accepted besides the loopback names (DNS rebinding guard). */
  allowedHosts: string[];
}

/** What every capability's routes and logic get: one database, one logger, one live bus, the import runtime. */
export interface AppContext {
  db: Db;
  logger: Logger;
  live: LiveBus;
  config: ServerConfig;
  /** Import workers, task submission and the geocoder (server/imports). */
  imports: ImportRuntime;
}
