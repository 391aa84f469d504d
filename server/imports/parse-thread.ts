import { parentPort, workerData } from 'node:worker_threads';
import { mapHeader, withColumnAliases } from './columns.ts';
import { openSource } from './sources/open.ts';
import { describeError, ImportInputError, StopRequested } from './errors.ts';
import { loadKind } from './load-kind.ts';
import { MAX_CHUNKS_IN_FLIGHT, type FromParseThread, type ParseThreadInput } from './parse-messages.ts';
import { rowChecker, type CheckedRow } from './row-check.ts';

/**
 * The parsing half of an import, in its own thread so parsing and validation overlap with the
 * database writes: reads the upload, checks every row, and sends chunks of checked rows in order.
 */
const input = workerData as ParseThreadInput;
const port = parentPort;
if (!port) throw new Error('parse-thread.ts runs only as a worker thread');
const shared = new Int32Array(input.shared);
const post = (message: FromParseThread) => port.postMessage(message);

async function main(): Promise<void> {
  const kind = await loadKind(input.kind);
  const columns = withColumnAliases(kind, input.options);
  const checker = rowChecker(kind, columns, { json: input.format === 'json', organizationUuid: input.organizationUuid });
  const source = openSource(input.file, input.format);
  let chunk: CheckedRow[] = [];
  let upTo = input.rowsDone - 1;
  let sentUpTo = upTo;

  const send = () => {
    if (upTo === sentUpTo) return;
    sentUpTo = upTo;
    post({ type: 'rows', rows: chunk, upTo, fraction: source.fraction() });
    chunk = [];
    Atomics.add(shared, 0, 1);
    for (let waiting = Atomics.load(shared, 0); waiting >= MAX_CHUNKS_IN_FLIGHT; waiting = Atomics.load(shared, 0)) {
      if (Atomics.load(shared, 1) === 1) throw new StopRequested();
      Atomics.wait(shared, 0, waiting, 1000);
    }
    if (Atomics.load(shared, 1) === 1) throw new StopRequested();
  };

  await source.read({
    onHeader(cells) {
      checker.setMapping(mapHeader(columns, cells));
      post({ type: 'header', cells });
    },
    onRows(rows, firstIndex) {
      for (let i = 0; i < rows.length; i++) {
        const index = firstIndex + i;
        if (index < input.rowsDone) continue;
        upTo = index;
        const checked = checker.check(index, rows[i]);
        if (checked) chunk.push(checked);
        if (chunk.length >= input.chunkRows) send();
      }
    },
  });
  send();
  post({ type: 'end' });
}

main().catch((error: unknown) => {
  if (error instanceof StopRequested) return;
  post({ type: 'error', input: error instanceof ImportInputError, message: describeError(error) });
});
