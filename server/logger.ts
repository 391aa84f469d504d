import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { ensurePrivateDir } from './data-dir/private-files.ts';
import { DEFAULT_LOG_ROTATION, type LogFileOptions, type LogRotation, RotatingLogFile } from './log-file.ts';

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

/** Every open log's flush, run at exit (one listener for all the servers of a process). */
const unflushed = new Set<() => void>();
process.on('exit', () => {
  for (const flush of unflushed) flush();
});

export interface LogSink {
  logger: Logger;
  close(): void;
}

/**
 * JSON lines in <dataDir>/logs/qr-sandbox.log. The lines of one event-loop turn are written
 * together, synchronously, at the end of that turn (and at exit): one write for a burst of
 * requests instead of one each, and still nothing lost when the process crashes. The file rotates
 * by size between those writes (qr-sandbox.1.log ...), so no line is split across two files.
 * Logging never throws: lines that cannot be written (a full disk) are dropped and counted (log-file.ts).
 */
export function createLogger(
  dataDir: string,
  level = 'info',
  rotation: LogRotation = DEFAULT_LOG_ROTATION,
  fileOptions: LogFileOptions = {},
): LogSink {
  const file = logFile(dataDir);
  ensurePrivateDir(path.dirname(file));
  const destination = new RotatingLogFile(file, rotation, fileOptions);
  let pending: string[] = [];
  let closed = false;
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    destination.write(lines);
  };
  const stream = {
    write(line: string) {
      // A line logged after close (a late callback) is appended as it comes rather than lost or thrown.
      if (closed) appendLate(file, line);
      else if (pending.push(line) === 1) setImmediate(flush);
    },
  };
  unflushed.add(flush);
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return {
    logger,
    close: () => {
      flush();
      closed = true;
      unflushed.delete(flush);
      destination.close();
    },
  };
}

function appendLate(file: string, line: string): void {
  try {
    fs.appendFileSync(file, line);
  } catch {
    // A full disk: the line is lost, the process goes on.
  }
}
