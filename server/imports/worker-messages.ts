import type { EngineOutcome } from './engine.ts';
import type { ImportJob } from './job-store.ts';

export interface WorkerConfig {
  dataDir: string;
  geocoderModule: string;
}

/** warm: load a kind and the geocoder ahead of a job (sent while an upload is still arriving). */
export type ToWorker = { type: 'run'; job: ImportJob } | { type: 'warm'; kind: string } | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'progress'; taskUuid: string; progress: number }
  | { type: 'done'; taskUuid: string; outcome: EngineOutcome }
  | { type: 'stopped' };
