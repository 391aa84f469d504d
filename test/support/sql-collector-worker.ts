import fs from 'node:fs';
import { hookPrepare, SQL_LOG_ENV } from './sql-collector.ts';

/** Worker shim of sql-collector.ts: hooks this thread's statements, then runs the real worker module (the last argv). */
const logFile = process.env[SQL_LOG_ENV];
const target = process.argv.at(-1);
if (!logFile || !target) throw new Error('sql-collector-worker.ts needs its log file and the worker module');
const seen = new Set<string>();
hookPrepare((sql) => {
  if (seen.has(sql)) return;
  seen.add(sql);
  fs.appendFileSync(logFile, `${JSON.stringify(sql)}\n`);
});
await import(target);
