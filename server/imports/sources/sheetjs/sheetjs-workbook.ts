import { fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ImportInputError } from '../../errors.ts';
import type { ImportLimits } from '../../limits.ts';
import { moduleUrl } from '../../../module-url.ts';
import { BATCH_TEXT_CHARS, type XlsxRow } from '../xlsx/sheet-scanner.ts';
import type { WorkbookSheet } from '../xlsx/workbook.ts';
import { checkOdsLimits } from './ods-limits.ts';
import type { ReadSheet, SheetJsAnswer, SheetJsRequest } from './sheetjs-process.ts';
import { unreadable } from './unreadable.ts';
import { checkXlsLimits } from './xls-limits.ts';

export type SheetJsFormat = 'xls' | 'ods';

/** Rows handed on at once (or fewer, once they hold BATCH_TEXT_CHARS of text). */
const BATCH_ROWS = 2000;

/**
 * How long SheetJS may take over a file, its process's start included: 6 s, and 10 s more per
 * 100,000 cells it holds (a workbook at the cell limit reads in a few seconds on a busy laptop),
 * at most 60 s. Past it the file is taken for damaged: SheetJS loops for ever on some damaged records.
 */
export function readDeadlineMs(cells: number): number {
  return Math.min(60_000, 6000 + Math.ceil(cells / 100_000) * 10_000);
}

function passwordProtected(format: SheetJsFormat): ImportInputError {
  const what = format === 'xls' ? 'Excel 97-2003 workbook (.xls)' : 'OpenDocument spreadsheet (.ods)';
  return new ImportInputError(
    `This ${what} is protected with a password (it is encrypted), so it cannot be read. Remove the password in the program that made it, save it again and upload that.`,
  );
}

const PROCESS_FILE = fileURLToPath(moduleUrl('./sheetjs-process.ts', import.meta.url));
const OUT_OF_MEMORY = /heap limit|heap out of memory|Allocation failed/i;

/** Has SheetJS read the checked bytes in a child process (sheetjs-process.ts), ending it at the deadline; its running out of memory ends only it. */
function readApart(request: SheetJsRequest, deadlineMs: number): Promise<ReadSheet[]> {
  const { format, limits } = request;
  return new Promise((resolve, reject) => {
    const child = fork(PROCESS_FILE, [], {
      execArgv: [`--max-old-space-size=${limits.workerMemoryMb}`],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4096);
    });
    let settled = false;
    /** Ends the read; a child that answered exits by itself (it disconnects), any other is killed. */
    const settle = (outcome: () => void, answered = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!answered) child.kill('SIGKILL');
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(unreadable(format, new Error(`it was not read within ${deadlineMs / 1000} s, as happens with a damaged file`))),
        ),
      deadlineMs,
    );
    child.on('message', (answer: SheetJsAnswer) =>
      settle(() => {
        if ('sheets' in answer) resolve(answer.sheets);
        else if (answer.password) reject(passwordProtected(format));
        else if (answer.input) reject(new ImportInputError(answer.error, answer.field));
        else reject(unreadable(format, new Error(answer.error)));
      }, true),
    );
    child.on('error', (error) => settle(() => reject(unreadable(format, error))));
    child.on('exit', () =>
      settle(() =>
        reject(
          unreadable(
            format,
            new Error(
              OUT_OF_MEMORY.test(stderr)
                ? `reading it took more than the ${limits.workerMemoryMb} MB of memory an import may use (serve --import-worker-memory-mb), as a damaged file can`
                : 'its reader stopped before it was done',
            ),
          ),
        ),
      ),
    );
    child.send(request);
  });
}

/** How long the last workbook read is kept for another read of the same file. */
const KEEP_READ_MS = 30_000;

/** The last workbook this process read, kept a little while (its rows, not SheetJS's objects). */
let lastRead: { key: string; sheets: ReadSheet[]; touch(): void } | undefined;

function remember(key: string, sheets: ReadSheet[]): void {
  let timer: NodeJS.Timeout | undefined;
  const entry = {
    key,
    sheets,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (lastRead === entry) lastRead = undefined;
      }, KEEP_READ_MS);
      timer.unref();
    },
  };
  lastRead = entry;
  entry.touch();
}

/**
 * An .xls or .ods workbook read by SheetJS (@e965/xlsx), after the checks that bound what it
 * holds (xls-limits.ts, ods-limits.ts): SheetJS reads a whole workbook into memory, so these
 * formats have limits of their own (serve --max-xls-ods-cells, --max-xls-ods-mb) besides the
 * workbook limits .xlsx has (columns, cell and row text). SheetJS runs in a child process with a
 * deadline and the import's memory (sheetjs-process.ts). It answers as the .xlsx reader does (xlsx/workbook.ts): the
 * sheets in order, and each sheet's rows with a value by the sheet's own row number, each cell as
 * the sheet shows it (text, number, boolean, error code, a date-formatted number as a Date).
 */
export class SheetJsWorkbook {
  readonly sheets: WorkbookSheet[];
  /** How far `rows` has read the sheet (0 to 1), for progress. */
  fraction = 0;
  private readonly read: ReadSheet[];

  private constructor(read: ReadSheet[]) {
    this.read = read;
    this.sheets = read.map((sheet, i) => ({ name: sheet.name, position: i + 1, hidden: sheet.hidden, part: sheetPart(i + 1) }));
  }

  /**
   * Checks the file against the limits, then reads it whole; every problem is an ImportInputError
   * that says what to do. A file read again soon by the same process (a preview's layout, then
   * its rows; an import's row count, then its rows) is read once.
   */
  static async open(file: string, format: SheetJsFormat, limits: ImportLimits): Promise<SheetJsWorkbook> {
    const stat = fs.statSync(file);
    const key = JSON.stringify([file, format, stat.size, stat.mtimeMs, limits]);
    if (lastRead?.key === key) {
      lastRead.touch();
      return new SheetJsWorkbook(lastRead.sheets);
    }
    let checked: { bytes: Buffer; cells: number };
    if (format === 'xls') checked = await checkXlsLimits(file, limits);
    else checked = { cells: await checkOdsLimits(file, limits), bytes: fs.readFileSync(file) };
    const sheets = await readApart({ bytes: checked.bytes, format, limits }, readDeadlineMs(checked.cells));
    remember(key, sheets);
    return new SheetJsWorkbook(sheets);
  }

  /** Each sheet's rows holding a value, by its part (as checkWorkbookLimits counts an .xlsx's). */
  rowCounts(): Map<string, number> {
    return new Map(this.sheets.map((sheet, i) => [sheet.part, this.read[i]?.rows.length ?? 0]));
  }

  /** The sheet's rows with a value, in batches, as the .xlsx reader gives them (Workbook.rows); the limits were checked as they were read. */
  async *rows(
    sheet: WorkbookSheet,
    _maxColumns: number,
    _options: { head?: boolean; maxRowChars?: number } = {},
  ): AsyncGenerator<XlsxRow[]> {
    const rows = this.read[sheet.position - 1]?.rows ?? [];
    this.fraction = 0;
    let batch: XlsxRow[] = [];
    let batchChars = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as XlsxRow;
      batch.push(row);
      batchChars += row.textChars;
      if (batch.length >= BATCH_ROWS || batchChars >= BATCH_TEXT_CHARS) {
        this.fraction = (i + 1) / rows.length;
        yield batch;
        batch = [];
        batchChars = 0;
      }
    }
    this.fraction = 1;
    if (batch.length > 0) yield batch;
  }

  close(): void {}
}

/** A SheetJS sheet's key among a workbook's counted parts. */
function sheetPart(position: number): string {
  return `sheet:${position}`;
}
