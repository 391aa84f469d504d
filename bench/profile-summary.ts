/**
 * Summarises a .cpuprofile: self time per function (top N) and per area of the import path, in
 * µs per row. Usage: node bench/profile-summary.ts <file.cpuprofile> <rows> [top]
 */
import { readProfile, type ProfileNode } from './cpuprofile.ts';

const [file, rowsArg, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> <rows> [top]');
const rows = Number(rowsArg ?? 1);
const profile = readProfile(file);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

const short = (n: ProfileNode) => {
  const url = n.callFrame.url.replace(/^.*\/(node_modules\/[^/]+|server|bench)\//, '$1/');
  return `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`;
};
/**
 * The area of a sample: the nearest frame (walking up the stack) that names one, by its function
 * or its file; the phases of an import as docs/performance.md lists them.
 */
const AREAS: [RegExp, string, 'function' | 'url'][] = [
  [/^(indexPending|endBatch)$/, 'search index (FTS5, per batch)', 'function'],
  [/better-sqlite3\/lib\/methods\/pragma/, 'checkpoints', 'url'],
  [/better-sqlite3\/lib\/methods\/wrappers/, 'begin and commit (WAL writes)', 'url'],
  [/node:internal\/modules|amaro|cjs-module-lexer|node:internal\/deps/, 'worker start (loading modules)', 'url'],
  [/gazetteer\.ts/, 'geocoder load', 'url'],
  [/papaparse|sources\/csv|text-decoder/, 'decode and parse (CSV)', 'url'],
  [/exceljs|unzipper|saxes|sax|sources\/xlsx|zip-limits/, 'decode and parse (XLSX)', 'url'],
  [/geocoding\//, 'geocode', 'url'],
  [/zod/, 'validate (zod)', 'url'],
  [/import-row\.ts|row-check\.ts|columns\.ts|qrcodes\/address\.ts|row-schema\.ts/, 'validate (prepare, record, checks)', 'url'],
  [/appointments\/times\.ts|temporal/, 'times and time zones', 'url'],
  [/uuid7/, 'uuid7', 'url'],
  [/db\/prepared\.ts|sync-query\.ts/, 'sqlite statements (lookups, inserts)', 'url'],
  [/import-writer\.ts|appointments\/importer\.ts/, 'writer (own code)', 'url'],
  [/job-store\.ts|tasks\//, 'checkpoint, task, excluded rows', 'url'],
  [/engine\.ts/, 'engine (own code)', 'url'],
];
function area(id: number): string {
  let at: number | undefined = id;
  const own = byId.get(id);
  if (own && /^\((garbage collector|program|idle)\)$/.test(own.callFrame.functionName)) return own.callFrame.functionName;
  while (at !== undefined) {
    const n = byId.get(at);
    if (!n) break;
    for (const [pattern, name, by] of AREAS) if (pattern.test(by === 'url' ? n.callFrame.url : n.callFrame.functionName)) return name;
    at = parent.get(at);
  }
  return 'other';
}
const perFunction = new Map<string, number>();
const perArea = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const n = byId.get(id);
  if (!n) continue;
  total += us;
  perFunction.set(short(n), (perFunction.get(short(n)) ?? 0) + us);
  const a = area(id);
  perArea.set(a, (perArea.get(a) ?? 0) + us);
}
const perRow = (us: number) => Math.round((us / rows) * 100) / 100;
const sorted = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => ({ [k]: perRow(v) }));
console.log(
  JSON.stringify(
    {
      rows,
      total_us_per_row: perRow(total),
      areas_us_per_row: sorted(perArea, 20),
      top_functions_us_per_row: sorted(perFunction, Number(topArg ?? 25)),
    },
    null,
    1,
  ),
);
