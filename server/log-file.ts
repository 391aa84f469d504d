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

/** How the log file is written (fs.writeSync); tests give one that fails like a full disk. */
export type WriteSync = (fd: number, buffer: Buffer, offset: number) => number;

export interface LogFileOptions {
  write?: WriteSync;
  /** Told of every write that failed (its lines were dropped), e.g. to mark the disk full. */
  onWriteFailed?(error: unknown): void;
}

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
 *
 * A write that fails (a full disk, a quota, an I/O error) never throws: its lines are dropped and
 * counted, what part of them reached the file is cut off again, and the first write that succeeds
 * afterwards begins with a line saying how many were dropped.
 */
export class RotatingLogFile {
  private fd = -1;
  private size = 0;
  private readonly file: string;
  private readonly rotation: LogRotation;
  private readonly writeSync: WriteSync;
  private readonly onWriteFailed: (error: unknown) => void;
  /** Lines dropped since the last write that succeeded. */
  private dropped = 0;
  /** A failed write's start could not be cut off: the file may end in a partial line. */
  private unterminated = false;

  constructor(file: string, rotation: LogRotation, options: LogFileOptions = {}) {
    this.file = file;
    this.rotation = rotation;
    this.writeSync = options.write ?? ((fd, buffer, offset) => fs.writeSync(fd, buffer, offset));
    this.onWriteFailed = options.onWriteFailed ?? (() => {});
    try {
      this.reopen();
    } catch (error) {
      // Opened again at the first write (a full disk may refuse to create the file).
      this.onWriteFailed(error);
    }
  }

  /** Appends whole lines; false when they were dropped (the write failed). */
  write(text: string): boolean {
    const before = (this.unterminated ? '\n' : '') + (this.dropped > 0 ? droppedNotice(this.dropped) : '');
    const bytes = Buffer.from(before + text);
    let written = 0;
    try {
      if (this.fd < 0) this.reopen();
      if (this.size > 0 && this.size + bytes.length > this.rotation.maxBytes) this.rotate();
      while (written < bytes.length) written += this.writeSync(this.fd, bytes, written);
    } catch (error) {
      if (written > 0) this.cutBack();
      this.dropped += countLines(text);
      this.onWriteFailed(error);
      return false;
    }
    this.size += bytes.length;
    this.dropped = 0;
    this.unterminated = false;
    return true;
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }

  /** Removes the start of a write that failed part way, so the file ends with a whole line. */
  private cutBack(): void {
    try {
      fs.ftruncateSync(this.fd, this.size);
    } catch {
      this.unterminated = true;
    }
  }

  private open(): number {
    ensurePrivateFile(this.file);
    return fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
  }

  private reopen(): void {
    this.fd = this.open();
    this.size = fs.fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    try {
      this.removeBeyond(this.rotation.files - 1);
      for (let n = this.rotation.files - 2; n >= 0; n--) {
        const from = rotatedLogFile(this.file, n);
        if (fs.existsSync(from)) fs.renameSync(from, rotatedLogFile(this.file, n + 1));
      }
    } catch {
      // A file another program holds open (Windows refuses to rename it): keep appending, try again at the next write.
    }
    this.reopen();
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

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** A log line (in pino's shape) saying how many lines a full disk cost. */
function droppedNotice(lines: number): string {
  const msg = `${lines.toLocaleString('en-US')} log lines were dropped: they could not be written (the disk was full or failing)`;
  return `${JSON.stringify({ level: 40, time: Date.now(), dropped_lines: lines, msg })}\n`;
}
