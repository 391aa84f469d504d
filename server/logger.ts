import path from 'node:path';
import pino, { type Logger } from 'pino';

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

/** JSON lines in <dataDir>/logs/qr-sandbox.log. */
export function createLogger(dataDir: string, level = 'info'): Logger {
  const destination = pino.destination({ dest: logFile(dataDir), mkdir: true, sync: false });
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
