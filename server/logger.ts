import path from 'node:path';
import pino, { type Logger } from 'pino';
import { ensurePrivateDir, ensurePrivateFile } from './data-dir/private-files.ts';

/** Paths never written to the log: credentials and webhook key material. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-signature"]',
  '*.api_secret',
  '*.secret',
  '*.secrets',
  'api_secret',
  'secret',
];

export function logFile(dataDir: string): string {
  return path.join(dataDir, 'logs', 'qr-sandbox.log');
}

export interface LogSink {
  logger: Logger;
  close(): void;
}

/** JSON lines in <dataDir>/logs/qr-sandbox.log, written synchronously so a crash loses none. */
export function createLogger(dataDir: string, level = 'info'): LogSink {
  const file = logFile(dataDir);
  ensurePrivateDir(path.dirname(file));
  ensurePrivateFile(file);
  const destination = pino.destination({ dest: file, sync: true });
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
  return { logger, close: () => destination.end() };
}
