import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './data-dir/private-files.ts';

/** How large the log grows and how many files of it are kept (serve --log-max-mb, --log-files). */
export interface LogRotation {
  /** A file is rotated before a write would take it past this size. */
  maxBytes: number;
  /** Files kept, the current one included: qr-sandbox.log, qr-sandbox.1.log (the newest old one) ... */
  files: number;
}

export const DEFAULT_LOG_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, files: 5 };

/** The n-th file of a log: the file itself for 0, then name.1.ext, name.2.ext ... from newest to oldest. */
export function rotatedLogFile(file: string, n: number): string {
  if (n === 0) return file;
  const { dir, name, ext } = path.parse(file);
  return path.join(dir, `${name}.${n}${ext}`);
}

/**
 * An append-only file written synchronously that rotates by size: before a write that would take
 * it past maxBytes, file.(n) becomes file.(n+1), the file becomes file.1 and a new one is started;
 * the oldest beyond `files` are deleted. A write is never split, so every file holds whole lines.
 */
export class RotatingLogFile {
  private fd: number;
  private size: number;
  private readonly file: string;
  private readonly rotation: LogRotation;

  constructor(file: string, rotation: LogRotation) {
    this.file = file;
    this.rotation = rotation;
    this.fd = this.open();
    this.size = fs.fstatSync(this.fd).size;
  }

  write(text: string): void {
    const bytes = Buffer.from(text);
    if (this.size > 0 && this.size + bytes.length > this.rotation.maxBytes) this.rotate();
    for (let written = 0; written < bytes.length; ) written += fs.writeSync(this.fd, bytes, written);
    this.size += bytes.length;
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private open(): number {
    ensurePrivateFile(this.file);
    return fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
  }

  private rotate(): void {
    fs.closeSync(this.fd);
    try {
      this.removeBeyond(this.rotation.files - 1);
      for (let n = this.rotation.files - 2; n >= 0; n--) {
        const from = rotatedLogFile(this.file, n);
        if (fs.existsSync(from)) fs.renameSync(from, rotatedLogFile(this.file, n + 1));
      }
    } catch {
      // A file another program holds open (Windows refuses to rename it): keep appending, try again at the next write.
    }
    this.fd = this.open();
    this.size = fs.fstatSync(this.fd).size;
  }

  /** Deletes the old files numbered `first` and above (also those left by an earlier, larger --log-files). */
  private removeBeyond(first: number): void {
    const { dir, name, ext } = path.parse(this.file);
    for (const entry of fs.readdirSync(dir)) {
      if (!entry.startsWith(`${name}.`) || !entry.endsWith(ext)) continue;
      const number = entry.slice(name.length + 1, entry.length - ext.length);
      if (/^\d+$/.test(number) && Number(number) >= Math.max(1, first)) fs.rmSync(path.join(dir, entry), { force: true });
    }
    if (first === 0) fs.rmSync(this.file, { force: true });
  }
}
