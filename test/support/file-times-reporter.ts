import path from 'node:path';

/**
 * A `node --test` reporter that prints, after the run, the test files that took longest (wall time
 * of each file's process, from start to exit) so the suite's slow spots stay visible. It passes no
 * test events on; use it next to `spec`.
 */
const SHOWN = Number(process.env.FILE_TIMES_SHOWN ?? 15);

interface FileEvent {
  type: string;
  data?: { name?: string; file?: string; nesting?: number };
}

export default async function* fileTimes(source: AsyncIterable<FileEvent>): AsyncGenerator<string> {
  const started = new Map<string, number>();
  const took = new Map<string, number>();
  const runStart = Date.now();
  for await (const event of source) {
    const { name, file, nesting } = event.data ?? {};
    // A file's own test is named by the file (as given on the command line, or expanded from a glob).
    if (!file || nesting !== 0 || !name || path.resolve(name) !== path.resolve(file)) continue;
    if (event.type === 'test:dequeue') started.set(file, Date.now());
    else if (event.type === 'test:complete') took.set(file, Date.now() - (started.get(file) ?? runStart));
  }
  if (took.size === 0) return;
  const total = Date.now() - runStart;
  const slowest = [...took].sort(([, a], [, b]) => b - a).slice(0, SHOWN);
  yield `\nSlowest test files (wall time of each file; the whole run took ${seconds(total)})\n`;
  for (const [file, ms] of slowest) yield `  ${seconds(ms).padStart(8)}  ${path.relative(process.cwd(), file)}\n`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
