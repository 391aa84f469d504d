import assert from 'node:assert/strict';
import fs from 'node:fs';
import { logFile } from '../../server/logger.ts';

/** The one request log line that mentions `text`, as [method, path, status, msg] (after the turn's lines are written). */
export async function requestLogLine(dataDir: string, text: string): Promise<[string, string, number, string]> {
  await new Promise((r) => setImmediate(r));
  const lines = fs
    .readFileSync(logFile(dataDir), 'utf8')
    .split('\n')
    .filter((l) => l.includes(text));
  assert.equal(lines.length, 1, `log lines mentioning ${text}: ${lines.length}`);
  const line = JSON.parse(lines[0] ?? '{}') as { method: string; path: string; status: number; msg: string };
  return [line.method, line.path, line.status, line.msg];
}
