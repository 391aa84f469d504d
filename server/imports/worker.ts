import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from '../db/database.ts';
import { taskUpdates } from '../tasks/lifecycle.ts';
import { runImport, type EngineOutcome } from './engine.ts';
import { describeError } from './errors.ts';
import { loadGeocoderFrom } from './geocoder-source.ts';
import type { ImportJob } from './job-store.ts';
import { loadKind } from './load-kind.ts';
import type { FromWorker, ToWorker, WorkerConfig } from './worker-messages.ts';

/** One import worker thread: its own SQLite connection, one job at a time, stops between batches when asked. */
const config = workerData as WorkerConfig;
const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread');

const db = openConnection(config.dataDir);
db.sqlite.pragma(`cache_size = -${16 * 1024}`);
let stopping = false;
let busy = false;

const post = (message: FromWorker) => port.postMessage(message);

async function run(job: ImportJob): Promise<void> {
  busy = true;
  let outcome: EngineOutcome;
  try {
    const [kind, geocoder] = await Promise.all([loadKind(job.kind), loadGeocoderFrom(config.geocoderModule)]);
    outcome = await runImport({
      db,
      dataDir: config.dataDir,
      geocoder,
      kind,
      job,
      shouldStop: () => stopping,
      onEvent: (event) => post({ type: 'progress', taskUuid: job.taskUuid, progress: event.progress }),
    });
  } catch (error) {
    const message = `The import could not start: ${describeError(error)}`;
    try {
      taskUpdates(db).fail(job.taskUuid, message, 0);
    } catch {
      // The database itself is failing; the main thread reports the outcome.
    }
    outcome = { state: 'failed', message, internal: true };
  }
  busy = false;
  post({ type: 'done', taskUuid: job.taskUuid, outcome });
  if (stopping) await shutdown();
}

async function shutdown(): Promise<void> {
  await db.close();
  post({ type: 'stopped' });
  port?.close();
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') void run(message.job);
  else if (message.type === 'warm') void Promise.all([loadKind(message.kind), loadGeocoderFrom(config.geocoderModule)]).catch(() => undefined);
  else if (message.type === 'stop') {
    stopping = true;
    if (!busy) void shutdown();
  }
});
post({ type: 'ready' });
