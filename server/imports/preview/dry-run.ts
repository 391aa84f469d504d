import { createPendingTask } from '../../tasks/state.ts';
import { runImport, type EngineEnv, type EngineOutcome } from '../engine/engine.ts';
import { taskTypeOf } from '../kinds.ts';
import { insertJob } from '../workers/job-store.ts';
import { openScratchConnection } from './scratch-db.ts';

/**
 * Runs an import exactly as a real one (the same engine, batches, writer and lookups) on a scratch
 * connection that cannot write the database, and answers what the import would give. The job's
 * task and its excluded rows live only in the scratch connection's temporary tables.
 */
export async function runDryImport(env: Omit<EngineEnv, 'db' | 'onEvent'>): Promise<EngineOutcome> {
  const { job, kind } = env;
  const scratch = openScratchConnection(env.dataDir, job.organizationUuid, kind.writtenTables, kind.shadowExtras);
  try {
    await createPendingTask(scratch.kysely, {
      uuid: job.taskUuid,
      taskType: taskTypeOf(job.kind, job.source),
      organizationUuid: job.organizationUuid,
      createdByUuid: 'dry-run',
      metadata: null,
    });
    await insertJob(scratch.kysely, job);
    const outcome = await runImport({ ...env, db: scratch, onEvent: () => {} });
    if (outcome.state !== 'completed') return outcome;
    const answer = kind.dryRunAnswer
      ? await kind.dryRunAnswer({
          db: scratch,
          taskUuid: job.taskUuid,
          results: outcome.results,
          sync: job.maxRows !== null,
          options: job.options,
        })
      : outcome.results;
    const encoding = outcome.results.encoding;
    return {
      state: 'completed',
      results: { ...answer, ...(encoding ? { encoding } : {}), dry_run: true, dry_run_notes: kind.dryRunNotes },
    };
  } finally {
    await scratch.close();
  }
}
