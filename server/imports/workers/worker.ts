import { DiskSpace } from '../../data-dir/disk-space.ts';
import { releaseSpaceReserve } from '../../data-dir/space-reserve.ts';
import { type Db, openConnection } from '../../db/database.ts';
import { checkDraftRows } from '../../import-drafts/check-rows.ts';
import { taskUpdates } from '../../tasks/state.ts';
import { runImport, type EngineOutcome } from '../engine/engine.ts';
import { warmReadAhead } from '../engine/read-ahead.ts';
import { runDryImport } from '../preview/dry-run.ts';
import { describeError, ImportInputError } from '../errors.ts';
import { ApiError } from '../../http/errors.ts';
import { writeJsonFile } from '../../http/json-file-writer.ts';
import { loadGeocoderFrom } from '../engine/geocoder-source.ts';
import type { ImportJob } from './job-store.ts';
import { loadKind } from '../kinds.ts';
import { importKindIds } from '../schemas.ts';
import { previewImport } from '../preview/preview.ts';
import { resolveKindLayout } from '../intake/layout.ts';
import { WalCheckpoints } from '../../db/wal/import-checkpoints.ts';
import { configureWorkerConnection, sizeCacheFor } from './worker-connection.ts';
import type { FromWorker, UploadRead, UploadReadResult, ToWorker, WorkerConfig } from './worker-messages.ts';

/** One import worker process: its own SQLite connection, one job at a time, stops between batches when asked. */
if (!process.send) throw new Error('worker.ts runs only as a child process with an IPC channel');
const config = JSON.parse(process.env.QR_SANDBOX_WORKER_CONFIG ?? '{}') as WorkerConfig;
// The server is gone (killed): stop at once rather than go on writing alone.
process.on('disconnect', () => process.exit(0));

const db = openConnection(config.dataDir);
configureWorkerConnection(db.sqlite);
const checkpoints = new WalCheckpoints(db);
let stopping = false;
let busy = false;

const post = (message: FromWorker) => process.send?.(message);

async function run(job: ImportJob): Promise<void> {
  busy = true;
  let outcome: EngineOutcome;
  try {
    const [kind, geocoder] = await Promise.all([loadKind(job.kind), loadGeocoderFrom(config.geocoderModule)]);
    sizeCacheFor(db.sqlite, job.kind);
    const env = { dataDir: config.dataDir, geocoder, kind, job, limits: config.limits, shouldStop: () => stopping };
    outcome = job.dryRun
      ? await runDryImport(env)
      : await runImport({
          ...env,
          db,
          onEvent: (event) => {
            if (event.type === 'committed') checkpoints.committed();
            post(event.type === 'committed' ? event : { type: 'progress', taskUuid: job.taskUuid, progress: event.progress });
          },
        });
  } catch (error) {
    const diskFull = new DiskSpace(config.dataDir).recognise(error);
    const message = diskFull
      ? `The import could not start: the disk is full. Free some space on the drive that holds the data folder (${config.dataDir}), then import the file again.`
      : `The import could not start: ${describeError(error)}`;
    const fail = () => taskUpdates(db).fail(job.taskUuid, message, 0);
    try {
      fail();
    } catch {
      // The database itself is failing; on a full disk the data folder's reserve makes room for the task's end.
      if (diskFull && releaseSpaceReserve(config.dataDir)) {
        try {
          fail();
        } catch {
          // the main thread reports the outcome
        }
      }
    }
    outcome = diskFull ? { state: 'failed', message, internal: false, diskFull: true } : { state: 'failed', message, internal: true };
  }
  if (!job.dryRun) checkpoints.atImportEnd();
  const answer =
    job.answerFile && outcome.state === 'completed'
      ? await writeJsonFile(outcome.results, job.answerFile, config.bigAnswerBytes)
      : undefined;
  busy = false;
  post(answer ? { type: 'done', taskUuid: job.taskUuid, answer } : { type: 'done', taskUuid: job.taskUuid, outcome });
  if (stopping) await shutdown();
}

/** The connection a draft's row checks use, kept open: a check answers in milliseconds, an open would cost several. */
let checkDb: Db | null = null;
function checkConnection(): Db {
  checkDb ??= openConnection(config.dataDir);
  return checkDb;
}

async function readUpload(id: number, request: UploadRead): Promise<void> {
  try {
    const kind = await loadKind(request.kind);
    const geocoder = request.op === 'layout' ? null : await loadGeocoderFrom(config.geocoderModule);
    const otherKinds =
      request.op === 'preview'
        ? await Promise.all(importKindIds.filter((id) => id !== request.kind).map(async (id) => ({ id, kind: await loadKind(id) })))
        : [];
    post({ type: 'reading', id });
    let result: UploadReadResult;
    if (request.op === 'layout') {
      result = await resolveKindLayout({
        file: request.file,
        format: request.format,
        kind,
        options: request.options,
        request: request.position,
        limits: config.limits,
        countRows: false,
      });
    } else if (request.op === 'check-rows') {
      result = await checkDraftRows({
        db: checkConnection(),
        kind,
        geocoder: geocoder ?? (await loadGeocoderFrom(config.geocoderModule)),
        organizationUuid: request.organizationUuid,
        options: request.options,
        rows: request.rows,
      });
    } else {
      result = await previewImport({
        file: request.file,
        format: request.format,
        kind,
        otherKinds,
        organizationUuid: request.organizationUuid,
        options: request.options,
        position: request.position,
        savedMappings: request.savedMappings,
        limits: config.limits,
        dataDir: config.dataDir,
        geocoder: geocoder ?? (await loadGeocoderFrom(config.geocoderModule)),
      });
    }
    const answer = request.op === 'preview' ? await writeJsonFile(result, request.answerFile, config.bigAnswerBytes) : undefined;
    post(answer ? { type: 'read', id, answer } : { type: 'read', id, result });
  } catch (error) {
    const conflict = error instanceof ApiError && error.code === 'CONFLICT';
    const field = error instanceof ImportInputError ? error.field : undefined;
    post({
      type: 'read',
      id,
      error: { message: describeError(error), input: error instanceof ImportInputError, conflict, ...(field ? { field } : {}) },
    });
  }
}

async function shutdown(): Promise<void> {
  await checkDb?.close();
  await checkpoints.close();
  await db.close();
  post({ type: 'stopped' });
  process.disconnect();
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'run') void run(message.job);
  else if (message.type === 'read-upload') void readUpload(message.id, message.request);
  else if (message.type === 'warm') {
    warmReadAhead(message.kind, message.uploadBytes);
    void Promise.all([loadKind(message.kind), loadGeocoderFrom(config.geocoderModule)]).catch(() => undefined);
  } else if (message.type === 'stop') {
    stopping = true;
    if (!busy) void shutdown();
  }
});
post({ type: 'ready' });
