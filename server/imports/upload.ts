import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import { tightenFile } from '../data-dir/private-files.ts';
import { ApiError } from '../http/errors.ts';
import { UPLOADS_DIR, type ImportSettings } from './runtime.ts';

export interface ReceivedFile {
  /** Path relative to the data dir. */
  uploadFile: string;
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

/** Streams a multipart upload's `file` part to <data-dir>/uploads/ (never into memory) and returns its text fields. */
export function receiveMultipart(
  req: Request,
  res: Response,
  settings: ImportSettings,
): Promise<{ file: ReceivedFile | null; fields: Record<string, string> }> {
  const uploader = multer({
    storage: multer.diskStorage({
      destination: path.join(settings.dataDir, UPLOADS_DIR),
      filename: (_req, _file, done) => done(null, path.basename(newUploadName())),
    }),
    limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
  }).single('file');
  return new Promise((resolve, reject) => {
    uploader(req, res, (error: unknown) => {
      if (error) {
        reject(multerError(error, settings));
        return;
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
        if (typeof value === 'string') fields[key] = value;
      }
      const file = req.file;
      // multer creates the file with the process umask; the uploads folder (0700) covers that moment.
      if (file) tightenFile(file.path);
      resolve({
        fields,
        file: file
          ? { uploadFile: path.join(UPLOADS_DIR, path.basename(file.path)), originalName: file.originalname || null, size: file.size }
          : null,
      });
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

/** Streams a JSON request body to <data-dir>/uploads/, enforcing the upload limit. */
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
  const uploadFile = newUploadName();
  const target = path.join(settings.dataDir, uploadFile);
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > settings.maxUploadBytes) done(tooLarge(settings));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, fs.createWriteStream(target, { mode: 0o600 }));
  } catch (error) {
    fs.rmSync(target, { force: true });
    if (error instanceof ApiError) {
      req.resume();
      throw error;
    }
    throw new ApiError('VALIDATION_ERROR', 'The request body ended early.');
  }
  return { uploadFile, originalName: null, size };
}

export function removeUpload(settings: ImportSettings, file: ReceivedFile | null | undefined): void {
  if (file) fs.rmSync(path.join(settings.dataDir, file.uploadFile), { force: true });
}
