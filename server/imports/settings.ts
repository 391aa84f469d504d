import { DEFAULT_GEOCODER_MODULE } from './engine/geocoder-source.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits.ts';

export const DEFAULT_MAX_UPLOAD_MB = 256;
export const DEFAULT_SYNC_ROW_CAP = 10_000;
export const DEFAULT_IMPORT_WORKERS = 2;
export const UPLOADS_DIR = 'uploads';

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
  /** Cell, row, column, workbook, excluded-row and worker memory limits (limits.ts). */
  limits: ImportLimits;
  /**
   * Starts the worker that reads uploads when the server starts rather than at the first upload
   * (serve and the desktop app): the first import or preview then does not wait the second it takes
   * to start beside the upload. Off for servers that tests start by the hundred.
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
    ...overrides,
    limits: { ...DEFAULT_IMPORT_LIMITS, ...overrides.limits },
  };
}
