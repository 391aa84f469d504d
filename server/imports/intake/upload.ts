import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import { isNoSpaceError } from '../../data-dir/disk-space.ts';
import { tightenFile } from '../../data-dir/private-files.ts';
import { ApiError } from '../../http/errors.ts';
import { UPLOADS_DIR, type ImportSettings } from '../settings.ts';

/**
 * The one owner of an uploaded file in <data-dir>/uploads/. Whoever holds the lease deletes the
 * file when done with it, on every path (`try { … } finally { await lease.release() }`). An import that
 * becomes a task hands the lease over to its job (ImportRuntime.submit, once the job row names
 * the file); from then on the import runtime deletes the file when the job ends, and at the next
 * start the files no unfinished job names.
 */
export class UploadLease {
  /** Path relative to the data dir, as import jobs store it. */
  readonly uploadFile: string;
  readonly path: string;
  private held = true;

  constructor(dataDir: string, uploadFile: string) {
    this.uploadFile = uploadFile;
    this.path = path.join(dataDir, uploadFile);
  }

  /** The file now belongs to an import job: release() leaves it. */
  handOver(): void {
    this.held = false;
  }

  /**
   * Deletes the file unless it was handed over; safe to call again. Off the event loop: a refused
   * upload can be as large as the upload limit, and unlinking it takes the file system a while.
   */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    // A file that cannot be removed now is removed at the next start (the runtime's sweep of unclaimed uploads).
    await fs.promises.rm(this.path, { force: true }).catch(() => undefined);
  }
}

export interface ReceivedFile {
  lease: UploadLease;
  /** The name the client gave, for display only (never used as a path). */
  originalName: string | null;
  size: number;
}

function tooLarge(settings: ImportSettings): ApiError {
  const mb = Math.round(settings.maxUploadBytes / (1024 * 1024));
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `The upload is larger than the limit of ${mb} MB. Split the file, or start the server with a larger --max-upload-mb.`,
  );
}

function newUploadName(): string {
  return path.join(UPLOADS_DIR, `${randomUUID()}.upload`);
}

/** Streams a multipart upload's `file` part to <data-dir>/uploads/ (never into memory) and returns its lease and the text fields. */
export function receiveMultipart(
  req: Request,
  res: Response,
  settings: ImportSettings,
  /** Told the client's name for the file as its part begins, before its bytes arrive. */
  onFileStart?: (originalName: string) => void,
): Promise<{ file: ReceivedFile | null; fields: Record<string, string> }> {
  /** The file multer writes; it leaves a file it could not finish (a full disk) behind. */
  let started: UploadLease | undefined;
  const uploader = multer({
    storage: multer.diskStorage({
      destination: path.join(settings.dataDir, UPLOADS_DIR),
      filename: (_req, file, done) => {
        onFileStart?.(file.originalname);
        const name = newUploadName();
        started = new UploadLease(settings.dataDir, name);
        done(null, path.basename(name));
      },
    }),
    limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
  }).single('file');
  return new Promise((resolve, reject) => {
    uploader(req, res, (error: unknown) => {
      if (error) {
        // A full disk is answered 507 by the error handler, not as an unreadable upload.
        void (started?.release() ?? Promise.resolve()).finally(() => reject(isNoSpaceError(error) ? error : multerError(error, settings)));
        return;
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
        if (typeof value === 'string') fields[key] = value;
      }
      const file = req.file;
      if (!file) {
        resolve({ fields, file: null });
        return;
      }
      const lease = new UploadLease(settings.dataDir, path.join(UPLOADS_DIR, path.basename(file.path)));
      try {
        // multer creates the file with the process umask; the uploads folder (0700) covers that moment.
        tightenFile(lease.path);
      } catch (tightenError) {
        void lease.release().finally(() => reject(tightenError));
        return;
      }
      resolve({ fields, file: { lease, originalName: file.originalname || null, size: file.size } });
    });
  });
}

function multerError(error: unknown, settings: ImportSettings): ApiError {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge(settings);
    if (error.code === 'LIMIT_UNEXPECTED_FILE') {
      return new ApiError('VALIDATION_ERROR', `Send one file, in the form field named "file" (got a file in "${error.field ?? '?'}").`, [
        { path: 'file', message: 'Expected exactly one file in the field "file"' },
      ]);
    }
    return new ApiError('VALIDATION_ERROR', `The upload could not be read: ${error.message}.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(
    'VALIDATION_ERROR',
    `The multipart upload could not be read (${message}). Send multipart/form-data with a "file" field.`,
  );
}

/** Streams a JSON request body to <data-dir>/uploads/, enforcing the upload limit; the caller owns the returned lease. */
export async function receiveBody(req: Request, settings: ImportSettings): Promise<ReceivedFile> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > settings.maxUploadBytes) {
    req.resume();
    throw tooLarge(settings);
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    req.resume();
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not supported; send the JSON uncompressed.`);
  }
  const lease = new UploadLease(settings.dataDir, newUploadName());
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > settings.maxUploadBytes) done(tooLarge(settings));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, fs.createWriteStream(lease.path, { mode: 0o600 }));
  } catch (error) {
    await lease.release();
    if (error instanceof ApiError || isNoSpaceError(error)) {
      req.resume();
      throw error;
    }
    throw new ApiError('VALIDATION_ERROR', 'The request body ended early.');
  }
  return { lease, originalName: null, size };
}
