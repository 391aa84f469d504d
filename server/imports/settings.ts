import { DEFAULT_GEOCODER_MODULE } from './engine/geocoder-source.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits.ts';

export const DEFAULT_MAX_UPLOAD_MB = 256;
export const DEFAULT_SYNC_ROW_CAP = 10_000;
export const DEFAULT_IMPORT_WORKERS = 2;
export const DEFAULT_UPLOAD_READERS = 3;
export const DEFAULT_UPLOAD_READ_SECONDS = 10;
/** An import worker or upload reader process with nothing to do ends after this long (serve --worker-idle-seconds). */
export const DEFAULT_WORKER_IDLE_SECONDS = 30;
export const UPLOADS_DIR = 'uploads';
/** A preview's or sync import's answer of 1 MB of JSON or more is serialised by its worker and streamed from a file (http/json-file.ts). */
export const DEFAULT_BIG_ANSWER_BYTES = 1024 * 1024;

export interface ImportSettings {
  dataDir: string;
  /** Largest accepted upload or JSON import body. */
  maxUploadBytes: number;
  /** Most rows a sync-mode import takes. */
  syncRowCap: number;
  /** Module exporting loadGeocoder(); default the offline gazetteer. */
  geocoderModule: string;
  /** Import worker processes. */
  workers: number;
  /** Upload reader processes at most (intake/upload-readers.ts): one organization reads in one of them at a time. */
  readers: number;
  /** How long a read of an upload (a preview, an import's header, a draft's row checks) may take, waiting for a reader included. */
  readDeadlineMs: number;
  /**
   * How long an import worker or upload reader process with nothing to do waits before it ends: an
   * idle one holds 100 to 180 MB (its modules, the geocoder, SQLite's page cache) and starts again in
   * about half a second, while the next upload arrives.
   */
  workerIdleMs: number;
  /** Answers of a preview, sync import or dry run this big (JSON characters) or bigger pass through a file, not the server's thread. */
  bigAnswerBytes: number;
  /** The file import workers and upload readers run: the bundle (workers/worker-bundle.ts; serve) or, when absent, the sources. */
  workerEntry?: string;
  /** Cell, row, column, workbook, excluded-row and worker memory limits (limits.ts). */
  limits: ImportLimits;
  /**
   * Starts an upload reader when the server starts rather than at the first upload (serve and the
   * desktop app): an import or preview right after the start then does not wait the second it takes
   * to start beside the upload. It ends after workerIdleMs like any idle reader. Off for servers that
   * tests start by the hundred.
   */
  startReaderEarly?: boolean;
}

export function defaultImportSettings(dataDir: string, overrides: Partial<ImportSettings> = {}): ImportSettings {
  return {
    dataDir,
    maxUploadBytes: DEFAULT_MAX_UPLOAD_MB * 1024 * 1024,
    syncRowCap: DEFAULT_SYNC_ROW_CAP,
    // An empty value (`QR_SANDBOX_GEOCODER_MODULE= npm run serve`) means unset, not a module named ''.
    geocoderModule: process.env.QR_SANDBOX_GEOCODER_MODULE || DEFAULT_GEOCODER_MODULE,
    workers: DEFAULT_IMPORT_WORKERS,
    readers: DEFAULT_UPLOAD_READERS,
    readDeadlineMs: DEFAULT_UPLOAD_READ_SECONDS * 1000,
    workerIdleMs: DEFAULT_WORKER_IDLE_SECONDS * 1000,
    bigAnswerBytes: DEFAULT_BIG_ANSWER_BYTES,
    ...overrides,
    limits: { ...DEFAULT_IMPORT_LIMITS, ...overrides.limits },
  };
}
