/**
 * What the server checks of its database file before it opens it for writing, so that it never
 * serves, writes into or sets up anew a file that is damaged, emptied or not a database. Every
 * refusal says what is wrong and what to do. The check reads only (besides the recovery SQLite
 * makes of a journal left by a kill, which any open makes).
 */
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { StartupError } from '../startup-error.ts';

const WHAT_TO_DO = 'Move it away and restore a backup, or start with an empty data folder; nothing was changed.';
const SQLITE_HEADER = 'SQLite format 3\0';
/**
 * PRAGMA quick_check reads every page: a 2.1 GB database took 2.4 s on a quiet machine and 5.9 to
 * 11.2 s on a busy one (900 to 190 MB/s; docs/hardening.md). A file up to 512 MB is checked whole
 * at every start (0.6 s, up to about 2.7 s); a bigger one only has its header and schema read.
 */
export const QUICK_CHECK_MAX_BYTES = 512 * 1024 * 1024;

const refuse = (problem: string) => new StartupError(`${problem} ${WHAT_TO_DO}`);

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The first bytes of the file, as far as they are printable text. */
function beginning(file: string): Buffer {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    return head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
  } finally {
    fs.closeSync(fd);
  }
}

const printable = (bytes: Buffer) => /^[\x20-\x7e]*/.exec(bytes.toString('latin1'))?.[0] ?? '';

interface CheckFailure {
  problem: string;
  error?: unknown;
}

/** The first problems PRAGMA quick_check finds (or the error that stopped it), or null when there is none. */
function quickCheck(file: string, wholeFile: boolean, readonly = true): CheckFailure | null {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly, fileMustExist: true });
    if (!wholeFile) {
      db.prepare('select count(*) from sqlite_schema').get();
      return null;
    }
    const rows = db.pragma('quick_check(3)', { simple: false }) as { quick_check: string }[];
    const found = rows
      .flatMap((row) => row.quick_check.split('\n'))
      .map((line) => line.trim())
      .filter((line) => line !== '' && line !== 'ok' && !line.startsWith('***'));
    return found.length === 0 ? null : { problem: found.slice(0, 3).join('; ') };
  } catch (error) {
    // A journal left by a kill must be rolled back (a WAL without its index rebuilt) before anything
    // can be read: a read-only connection cannot, so the check is made on one that may, as any open would.
    if (readonly && (error as { code?: string }).code?.startsWith('SQLITE_READONLY')) {
      db?.close();
      db = undefined;
      return quickCheck(file, wholeFile, false);
    }
    return { problem: error instanceof Error ? error.message : String(error), error };
  } finally {
    db?.close();
  }
}

/**
 * Refuses (StartupError) a database file that is not a file, is empty while `setUpMarker` (credentials.json)
 * shows the folder was set up before, is not SQLite, or fails PRAGMA quick_check. A missing file, or an
 * empty one in a folder never set up (a first start cut short), is a fresh start and passes.
 *
 * Opening a WAL database makes its shared-memory file, which a full disk can refuse: `diskFull` tells
 * that from damage. The check is then made once more after `makeRoom` (the space reserve given up), and
 * skipped when the disk is still too full for it: a full disk is not a damaged database.
 */
export function checkDatabaseFile(
  file: string,
  setUpMarker: string,
  disk: { diskFull(error: unknown): boolean; makeRoom(): boolean },
): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StartupError(`The database file ${file} cannot be read (${(error as Error).message}).`);
  }
  if (!stat.isFile()) throw refuse(`The database file ${file} is ${kindOf(stat)}, not a file.`);
  if (stat.size === 0) {
    if (fs.existsSync(setUpMarker))
      throw refuse(`The database file ${file} is empty, yet ${setUpMarker} shows this folder was set up before: its data is gone.`);
    return;
  }
  const head = beginning(file);
  if (head.toString('latin1') !== SQLITE_HEADER)
    throw refuse(`The database file ${file} is not a SQLite database (it begins "${printable(head)}").`);
  const wholeFile = stat.size <= QUICK_CHECK_MAX_BYTES;
  let failure = quickCheck(file, wholeFile);
  if (failure && disk.diskFull(failure.error)) {
    failure = disk.makeRoom() ? quickCheck(file, wholeFile) : failure;
    if (failure && disk.diskFull(failure.error)) return;
  }
  if (failure) throw refuse(`The database file ${file} is damaged (${failure.problem}).`);
}
