/**
 * Runs the import's workbook readers over a folder of real workbooks made by others (every
 * .xlsx, .xls and .ods under it) and counts what happened to each: read fine, refused with a
 * clear 400 (by reason), or crashed (an error that is not the user's to fix, or the reader
 * process dying) or hung (no answer within the deadline). Each file is read in a child process
 * with an upload reader's heap (192 MB), as the server reads an upload.
 *
 *   node scripts/workbook-corpus.ts FOLDER [--jobs 2] [--seconds 30] [--json]
 *
 * docs/imports.md ("Real workbooks") gives the counts and where the files came from.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_IMPORT_LIMITS } from '../server/imports/limits.ts';
import type { CorpusOutcome } from './workbook-corpus-read.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    jobs: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '30' },
    json: { type: 'boolean', default: false },
  },
});
const folder = positionals[0];
if (!folder || !fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/workbook-corpus.ts FOLDER [--jobs 2] [--seconds 30] [--json]');
  process.exit(2);
}
const jobs = Math.max(1, Number(values.jobs));
const deadlineMs = Number(values.seconds) * 1000;

type Result = CorpusOutcome | { outcome: 'hung'; format: string } | { outcome: 'died'; format: string; message: string };

function workbooks(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(xlsx|xls|ods)$/i.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** The refusal's reason in a few words, so the counts group alike refusals. */
function reason(message: string): string {
  const rules: [RegExp, string][] = [
    [/protected with a password/, 'password-protected (encrypted)'],
    [/has no worksheet|holds no workbook stream|no workbook part/, 'no worksheet'],
    [/is empty: it has no header row|has a header row but no data rows/, 'no data (an empty sheet or a header only)'],
    [/beyond column/, 'a cell beyond the column limit'],
    [/more than [\d,]+ columns/, 'more columns than the limit'],
    [/beyond row 1,048,576/, 'a row beyond the last row a sheet has'],
    [/longer than the limit|more text than the limit|more spaces than the limit/, 'a cell or row over the text limit'],
    [/not a date/, 'a date-formatted number that is no date'],
    [/which cell text cannot hold/, 'a NUL or broken character in cell text'],
    [/cells with a value/, 'more cells than an .xls or .ods may hold'],
    [/unpacks to more than|compressed more than/, 'a zip limit'],
    [/refer to its shared strings/, 'shared strings missing'],
    [/names a column twice/, 'a column named twice'],
    [/not a spreadsheet|This is an? /, 'not a spreadsheet'],
    [/could not be read as/, 'damaged or not readable'],
  ];
  return rules.find(([pattern]) => pattern.test(message))?.[1] ?? message.slice(0, 80);
}

function startChild(): ChildProcess {
  return fork(new URL('./workbook-corpus-read.ts', import.meta.url), [], {
    execArgv: [`--max-old-space-size=${DEFAULT_IMPORT_LIMITS.workerMemoryMb}`],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** Reads the files in one child at a time; a child that dies or misses the deadline is replaced. */
async function runLane(queue: string[], results: Map<string, Result>): Promise<void> {
  let child = startChild();
  try {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const current = file;
      let stderr = '';
      const onErr = (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      };
      child.stderr?.on('data', onErr);
      const result = await new Promise<Result>((resolve) => {
        const timer = setTimeout(() => resolve({ outcome: 'hung', format: '?' }), deadlineMs);
        const done = (value: Result) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(value);
        };
        const onMessage = (message: { file: string; result: CorpusOutcome }) => {
          if (message.file === current) done(message.result);
        };
        const onExit = (code: number | null, signal: string | null) =>
          done({ outcome: 'died', format: '?', message: /heap/i.test(stderr) ? 'out of memory' : `exit ${code ?? signal}` });
        child.on('message', onMessage);
        child.on('exit', onExit);
        child.send({ file: current });
      });
      child.stderr?.off('data', onErr);
      results.set(current, result);
      if (result.outcome === 'hung' || result.outcome === 'died') {
        child.kill('SIGKILL');
        child = startChild();
      }
    }
  } finally {
    child.kill();
  }
}

const files = workbooks(folder);
const results = new Map<string, Result>();
const started = Date.now();
const queue = [...files];
await Promise.all(Array.from({ length: jobs }, () => runLane(queue, results)));

const count = (pick: (r: Result) => string | null) => {
  const counts: Record<string, number> = {};
  for (const result of results.values()) {
    const key = pick(result);
    if (key !== null) counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
};
const extension = (file: string) => path.extname(file).slice(1).toLowerCase();
const summary = {
  folder: path.resolve(folder),
  files: files.length,
  seconds: Math.round((Date.now() - started) / 100) / 10,
  outcomes: count((r) => r.outcome),
  by_extension: Object.fromEntries(
    ['xlsx', 'xls', 'ods'].map((ext) => [
      ext,
      (() => {
        const counts: Record<string, number> = {};
        for (const [file, r] of results) if (extension(file) === ext) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
        return counts;
      })(),
    ]),
  ),
  refused: count((r) => (r.outcome === 'refused' ? reason(r.message) : null)),
  crashed: [...results].filter(([, r]) => ['crashed', 'died', 'hung'].includes(r.outcome)).map(([file, r]) => ({ file, ...r })),
  not_a_workbook: [...results].filter(([, r]) => r.outcome === 'not-a-workbook').map(([file, r]) => ({ file, format: r.format })),
  refusals: values.json
    ? [...results].filter(([, r]) => r.outcome === 'refused').map(([file, r]) => ({ file, message: (r as { message: string }).message }))
    : undefined,
};
console.log(JSON.stringify(summary, null, 2));
process.exitCode = summary.crashed.length > 0 ? 1 : 0;
