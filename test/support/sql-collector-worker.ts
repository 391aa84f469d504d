import fs from 'node:fs';
import { hookPrepare, SQL_LOG_ENV } from './sql-collector.ts';

/**
 * Loaded with `--import` (through NODE_OPTIONS) into every process the server starts while
 * statements are collected (import and inspection workers): hooks that process's statements and
 * appends each new one to the shared log file.
 */
const logFile = process.env[SQL_LOG_ENV];
if (logFile) {
  const seen = new Set<string>();
  hookPrepare((sql) => {
    if (seen.has(sql)) return;
    seen.add(sql);
    fs.appendFileSync(logFile, `${JSON.stringify(sql)}\n`);
  });
}
