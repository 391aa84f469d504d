/**
 * The thread of readAhead (read-ahead.ts): reads the upload, decodes and checks its rows (the
 * kind's quickParse, prepare and rowSchema) beside the import's writer, and hands each chunk of
 * the source over as it read it, at most `maxAhead` rows beyond those the writer has taken.
 * Nothing here touches the database.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError, ImportInputError } from '../errors.ts';
import { loadKind } from '../kinds.ts';
import { openSource } from '../sources/open.ts';
import { type AheadRows, type FromReadAhead, isPlainValue, type ReadAheadData, STOP, TAKEN, VALID } from './checked-wire.ts';
import { mapHeader, withColumnAliases } from './columns.ts';
import { fileLayoutOf } from './file-layout.ts';
import { rowChecker } from './row-check.ts';

const port = parentPort;
if (!port) throw new Error('read-ahead-thread.ts runs only as a worker thread');
const post = (message: FromReadAhead) => port.postMessage(message);

/** The writer wants no more rows (it stopped, failed or was cancelled). */
class Stopped extends Error {}

/** Mask bits for the values that are the row's own cells: the first 31 keys of a shape. */
const MASKED_KEYS = 31;

async function read(data: ReadAheadData): Promise<void> {
  const { job, shared, skipBelow, maxAhead } = data;
  const kind = await loadKind(job.kind);
  const columns = withColumnAliases(kind, job.options);
  const checker = rowChecker(kind, columns, { format: job.format, organizationUuid: job.organizationUuid });
  const source = openSource(data.file, job.format, data.limits, fileLayoutOf(job.options));
  /** The cell each column is read from (recordFromCells: the last cell mapped to it). */
  let cellOf = new Map<string, number>();
  const shapeIds = new Map<string, number>();
  let posted = 0;

  /** Appends a valid row to `values`; false when one of its values is not plain data (the writer checks it again then). */
  const encode = (row: unknown, cells: readonly unknown[] | null, values: unknown[], shapes: string[][]): boolean => {
    if (row === null || typeof row !== 'object' || Object.getPrototypeOf(row) !== Object.prototype) return false;
    const record = row as Record<string, unknown>;
    const keys = Object.keys(record);
    const start = values.length;
    values.push(0, 0);
    let mask = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const value = record[key];
      if (key === '__proto__' || !isPlainValue(value)) {
        values.length = start;
        return false;
      }
      const cell = cells !== null && k < MASKED_KEYS ? cellOf.get(key) : undefined;
      if (cell !== undefined && value !== undefined && cells?.[cell] === value) {
        mask |= 1 << k;
        values.push(cell);
      } else values.push(value);
    }
    const shape = keys.join('\u0000');
    let id = shapeIds.get(shape);
    if (id === undefined) {
      id = shapeIds.size;
      shapeIds.set(shape, id);
      shapes.push(keys);
    }
    values[start] = id;
    values[start + 1] = mask;
    return true;
  };

  await source.read({
    onHeader(cells) {
      const mapping = mapHeader(columns, cells);
      checker.setMapping(mapping);
      cellOf = new Map();
      mapping.forEach((column, i) => {
        if (column) cellOf.set(column, i);
      });
      post({ type: 'header', cells });
    },
    onRows(rows, firstIndex, rowNumbers) {
      const tags = new Uint8Array(rows.length);
      const values: unknown[] = [];
      const shapes: string[][] = [];
      let sent = rows;
      for (let i = 0; i < rows.length; i++) {
        const index = firstIndex + i;
        if (index < skipBelow) {
          // Done by an earlier run: the writer skips it unread.
          if (sent === rows) sent = rows.slice();
          sent[i] = null;
          continue;
        }
        const checked = checker.check(index, rows[i]);
        if (checked === null || 'error' in checked) continue;
        const raw = rows[i];
        if (encode(checked.row, Array.isArray(raw) ? raw : null, values, shapes)) tags[i] = VALID;
      }
      posted += rows.length;
      const message: AheadRows = {
        type: 'rows',
        firstIndex,
        rowNumbers,
        rows: sent,
        tags,
        values,
        shapes,
        fraction: source.fraction(),
        encoding: source.encoding?.() ?? null,
      };
      post(message);
      for (;;) {
        if (Atomics.load(shared, STOP) === 1) throw new Stopped();
        const taken = Atomics.load(shared, TAKEN);
        if (posted - taken <= maxAhead) break;
        Atomics.wait(shared, TAKEN, taken);
      }
    },
  });
  post({ type: 'end', fraction: source.fraction(), encoding: source.encoding?.() ?? null });
}

// Started ahead of its import (while the upload arrives): its modules and the kind load meanwhile.
const { kind } = workerData as { kind: string };
loadKind(kind).catch(() => undefined);

const run = (data: ReadAheadData) =>
  read(data).catch((error: unknown) => {
    if (error instanceof Stopped) return;
    const code = (error as { code?: unknown } | null)?.code;
    post({
      type: 'error',
      input: error instanceof ImportInputError,
      message: describeError(error),
      field: error instanceof ImportInputError ? error.field : 'file',
      ...(typeof code === 'string' ? { code } : {}),
    });
  });

port.once('message', run);
