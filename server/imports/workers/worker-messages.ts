import type { DraftCheckRequest, DraftCheckResult } from '../../import-drafts/check-rows.ts';
import type { WrittenJson } from '../../http/json-file-writer.ts';
import type { EngineOutcome } from '../engine/engine.ts';
import type { ImportJob } from './job-store.ts';
import type { ImportLimits } from '../limits.ts';
import type { ImportPreview } from '../schemas.ts';
import type { ImportKindId } from '../schemas.ts';
import type { ImportFormat } from '../intake/sniff.ts';
import type { LayoutPosition, ResolvedLayout, SavedMapping } from '../intake/layout.ts';

export interface WorkerConfig {
  dataDir: string;
  geocoderModule: string;
  limits: ImportLimits;
  /** An answer this big (JSON characters) or bigger comes as a file (ImportJob's and a preview's `answerFile`). */
  bigAnswerBytes: number;
  /** The file the process runs: the bundle (worker-bundle.ts) or, when absent, the sources' worker.ts. */
  entry?: string;
}

/** Reading an upload before any task starts, in a worker process: where its table is and how its header reads, or its first rows. */
export type UploadRead =
  | {
      op: 'layout';
      file: string;
      format: Exclude<ImportFormat, 'json'>;
      kind: ImportKindId;
      organizationUuid: string;
      options: Record<string, unknown>;
      position: LayoutPosition;
    }
  | {
      op: 'preview';
      file: string;
      format: ImportFormat;
      kind: ImportKindId;
      organizationUuid: string;
      options: Record<string, unknown>;
      position: LayoutPosition;
      savedMappings: SavedMapping[];
      /** Where to write the preview when it is big (http/json-file-writer.ts): the server streams it from there. */
      answerFile: string;
    }
  | DraftCheckRequest;

export type UploadReadResult = ResolvedLayout | ImportPreview | DraftCheckResult;

/** What one kind of upload read takes, without its `op`. */
export type UploadReadInput<Op extends UploadRead['op']> = Omit<Extract<UploadRead, { op: Op }>, 'op'>;

/** warm: load a kind and the geocoder ahead of a job (sent while an upload is still arriving). */
export type ToWorker =
  | { type: 'run'; job: ImportJob }
  | { type: 'warm'; kind: ImportKindId; uploadBytes?: number }
  | { type: 'read-upload'; id: number; request: UploadRead }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'progress'; taskUuid: string; progress: number }
  /** A batch committed: the server's writes waiting for the lock try again now (db/database.ts lockReleased). */
  | { type: 'committed' }
  | { type: 'done'; taskUuid: string; outcome: EngineOutcome }
  /** Completed, its results written to the job's `answerFile`. */
  | { type: 'done'; taskUuid: string; answer: WrittenJson }
  /** An upload read has its kind and geocoder loaded and begins on the file (or the rows). */
  | { type: 'reading'; id: number }
  /** `answer`: the result written to the request's `answerFile`. */
  | {
      type: 'read';
      id: number;
      result?: UploadReadResult;
      answer?: WrittenJson;
      error?: { message: string; input: boolean; conflict?: boolean; field?: string };
    }
  | { type: 'stopped' };
