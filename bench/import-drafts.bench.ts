import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importAndPoll, median, round, startChildServer, target } from './support.ts';

/**
 * Fixing rows in place at scale: a QR code import whose 100,000 rows are all excluded (an address
 * nobody can locate) opened as a draft, then through real HTTP: pages at the top and the bottom,
 * the "only rows with problems" and text filters, one cell edit (checked again by the import's own
 * checks in the upload reader worker) and a find and replace over every row in one transaction.
 * Targets: a page, a filter and an edit under 200 ms (the median of RUNS).
 */
const ROWS = Number(process.env.BENCH_DRAFT_ROWS ?? 100_000);
const RUNS = 5;
const LIMIT_MS = 200;

export function unlocatableCsv(rows: number): string {
  const lines = ['name,location,qr_code_external_reference_id'];
  for (let i = 0; i < rows; i++) lines.push(`Site ${i},"${i + 1} Nowhere Road, Atlantis VIC 3999",DRAFT-${i}`);
  return `${lines.join('\n')}\n`;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-drafts-'));
const server = await startChildServer(dataDir, ['--max-stored-excluded-rows', String(ROWS)]);

async function timed(pathname: string, init?: RequestInit): Promise<{ ms: number; body: Record<string, unknown> }> {
  const t0 = performance.now();
  const res = await server.request(pathname, init);
  const body = (await res.json()) as Record<string, unknown>;
  const ms = performance.now() - t0;
  if (res.status >= 300) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function medianOf(run: () => Promise<{ ms: number }>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await run()).ms);
  return round(median(times) ?? NaN);
}

const json = (value: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

let report: Record<string, unknown>;
try {
  const file = path.join(dataDir, 'unlocatable.csv');
  fs.writeFileSync(file, unlocatableCsv(ROWS));
  const imported = await importAndPoll(server, file, 'unlocatable.csv');
  const created = await timed('/api/import-drafts', json({ background_task_uuid: String(imported.task.uuid) }));
  const uuid = String(created.body.uuid);
  const base = `/api/import-drafts/uuid/${uuid}`;
  const firstPage = await medianOf(() => timed(`${base}/rows?offset=0&limit=100`));
  const lastPage = await medianOf(() => timed(`${base}/rows?offset=${ROWS - 100}&limit=100`));
  const problemsOnly = await medianOf(() => timed(`${base}/rows?problems_only=true&offset=50000&limit=100`));
  const search = await medianOf(() => timed(`${base}/rows?search=site%2099999&limit=100`));
  const draft = await medianOf(() => timed(base));
  let value = 0;
  const edit = await medianOf(() =>
    timed(`${base}/rows/${ROWS / 2}`, json({ column: 'location', value: `${++value} High Street, Carlton VIC 3053` }, 'PATCH')),
  );
  const replace = await timed(`${base}/replace`, json({ column: 'location', find: 'Atlantis', replace: 'Carlton' }));
  const undo = await timed(`${base}/undo`, { method: 'POST' });
  report = {
    bench: 'import-drafts',
    rows: ROWS,
    runs: RUNS,
    load_average_1m: round(os.loadavg()[0] ?? NaN),
    import_seconds: round(imported.seconds),
    create_draft_ms: round(created.ms),
    median_ms: { first_page: firstPage, last_page: lastPage, problems_only_page: problemsOnly, search, draft, edit },
    replace_all_rows: { ms: round(replace.ms), changed: replace.body.changed, rechecked: replace.body.rechecked },
    undo_replace_ms: round(undo.ms),
    targets: {
      last_page: target(lastPage, LIMIT_MS),
      problems_only_page: target(problemsOnly, LIMIT_MS),
      search: target(search, LIMIT_MS),
      edit: target(edit, LIMIT_MS),
    },
  };
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
