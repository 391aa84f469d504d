import fs from 'node:fs';
import path from 'node:path';
import { coverageDir, type CoverageLine } from './openapi-contract.ts';

/**
 * A `node --test` reporter that prints, after the run, which operations and statuses of
 * /api/openapi.json the tests' responses exercised (each one validated against the document by
 * test/support/openapi-contract.ts). It passes no test events on; use it next to `spec`.
 */
export default async function* openApiCoverage(source: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const _event of source) {
    // Only the end of the run matters here.
  }
  const dir = coverageDir(process.pid);
  if (!fs.existsSync(dir)) return;
  try {
    const documentedFile = path.join(dir, 'documented.json');
    const documented = fs.existsSync(documentedFile) ? (JSON.parse(fs.readFileSync(documentedFile, 'utf8')) as CoverageLine[]) : [];
    const seen = new Map<string, CoverageLine>();
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as CoverageLine;
        seen.set(`${entry.operationId} ${entry.status}`, entry);
      }
    }
    yield* summary(documented, [...seen.values()]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function* summary(documented: CoverageLine[], seen: CoverageLine[]): Generator<string> {
  const operations = new Map<string, CoverageLine>();
  for (const d of documented) operations.set(d.operationId, d);
  const statusesByOperation = new Map<string, number[]>();
  for (const s of seen) statusesByOperation.set(s.operationId, [...(statusesByOperation.get(s.operationId) ?? []), s.status].sort());
  const documentedPairs = new Set(documented.map((d) => `${d.operationId} ${d.status}`));
  const seenDocumented = seen.filter((s) => documentedPairs.has(`${s.operationId} ${s.status}`)).length;
  yield '\nOpenAPI response validation coverage (every response below was validated against /api/openapi.json)\n';
  yield `  operations exercised: ${statusesByOperation.size} of ${operations.size}\n`;
  yield `  operation+status pairs exercised: ${seenDocumented} of ${documentedPairs.size} documented\n`;
  for (const [id, op] of [...operations].sort(([, a], [, b]) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const statuses = statusesByOperation.get(id);
    yield `  ${statuses ? ' ' : '-'} ${op.method.padEnd(6)} ${op.path.padEnd(62)} ${statuses ? statuses.join(' ') : '(not exercised)'}\n`;
  }
}
