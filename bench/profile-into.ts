/**
 * Imports one file into a copy of a data dir (a populated organization made by the benchmarks, e.g.
 * bench/out/big-org-200000-0-0-0-*) with a real child server, and prints the seconds from POST to
 * COMPLETED. For profiling an import into a populated organization:
 *
 *   NODE_OPTIONS='--cpu-prof --cpu-prof-dir=bench/out/prof' node bench/profile-into.ts DATA_DIR FILE [endpoint]
 *
 * (NODE_OPTIONS reaches the child server and its import workers: the profile with the most samples is the import's;
 * node bench/profile-top.ts reads it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyDataDir } from './big-org.ts';
import { importAndPoll, round, startChildServer } from './support.ts';

const [template, file, endpoint = '/api/appointment_schedule/bulk'] = process.argv.slice(2);
if (!template || !file) throw new Error('usage: profile-into.ts DATA_DIR FILE [endpoint]');
const dataDir = copyDataDir(template, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-profile-into-')));
const server = await startChildServer(dataDir);
try {
  const result = await importAndPoll(server, file, path.basename(file), endpoint);
  console.log(
    JSON.stringify({
      file: path.basename(file),
      status: result.task.status,
      results: result.task.results,
      seconds: round(result.seconds),
      upload_seconds: round(result.uploadSeconds),
    }),
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
