import type { DraftCheckRequest, DraftCheckResult } from '../../import-drafts/check-rows.ts';
import type { EngineOutcome } from '../engine/engine.ts';
import type { ImportJob } from './job-store.ts';
import type { ImportLimits } from '../limits.ts';
import type { ImportPreview } from '../schemas.ts';
import type { ImportKindId } from '../schemas.ts';
import type { ImportFormat } from '../intake/sniff.ts';

export interface WorkerConfig {
  dataDir: string;
  geocoderModule: string;
  limits: ImportLimits;
}

/** Reading an upload before any task starts, in a worker process: a workbook's header row, or the first rows of any file. */
export type UploadRead =
  | { op: 'xlsx-header'; file: string }
  | { op: 'preview'; file: string; format: ImportFormat; kind: ImportKindId; organizationUuid: string; options: Record<string, unknown> }
  | DraftCheckRequest;

export type UploadReadResult = { header: string[]; hasData: boolean | null } | ImportPreview | DraftCheckResult;

/** warm: load a kind and the geocoder ahead of a job (sent while an upload is still arriving). */
export type ToWorker =
  | { type: 'run'; job: ImportJob }
  | { type: 'warm'; kind: ImportKindId }
  | { type: 'read-upload'; id: number; request: UploadRead }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'progress'; taskUuid: string; progress: number }
  /** A batch committed: the server's writes waiting for the lock try again now (db/database.ts lockReleased). */
  | { type: 'committed' }
  | { type: 'done'; taskUuid: string; outcome: EngineOutcome }
  | { type: 'read'; id: number; result?: UploadReadResult; error?: { message: string; input: boolean; conflict?: boolean } }
  | { type: 'stopped' };
