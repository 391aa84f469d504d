import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bigOrgTemplate, copyDataDir } from './big-org.ts';
import { percentile, round, startChildServer, target } from './support.ts';

/**
 * The list endpoints in a big organization (bench/big-org.ts: 1M QR codes, 1M appointments, 100k
 * tasks, 1M webhook deliveries), through real HTTP against the real server: the first page and the
 * last page (the deepest offset), each requested RUNS times after a first request (reported
 * apart: it counts the rows); the median must stay under 50 ms.
 */
const RUNS = Number(process.env.BENCH_LIST_RUNS ?? 7);
const LIMIT_MS = 50;

const template = await bigOrgTemplate();
const dataDir = copyDataDir(template.dataDir, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-lists-')));
const server = await startChildServer(dataDir);

async function get(pathname: string): Promise<{ ms: number; body: { total: number; pages: number; items: unknown[] } }> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${pathname}`, { headers: { authorization: server.auth } });
  const body = (await res.json()) as { total: number; pages: number; items: unknown[] };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function page(pathname: string) {
  // The first request of a list counts its rows; the others reuse the count while nothing changed (server/db/count-cache.ts).
  const cold = await get(pathname);
  const times: number[] = [];
  let body: { total: number; pages: number; items: unknown[] } | undefined;
  for (let i = 0; i < RUNS; i++) {
    const answer = await get(pathname);
    times.push(answer.ms);
    body = answer.body;
  }
  return {
    p50_ms: round(percentile(times, 50)),
    max_ms: round(Math.max(...times)),
    first_request_ms: round(cold.ms),
    total: body?.total ?? 0,
    items: body?.items.length ?? 0,
  };
}

async function firstAndLast(name: string, base: string) {
  const sep = base.includes('?') ? '&' : '?';
  const first = await page(`${base}${sep}page=1&per_page=25`);
  const pages = Math.max(1, Math.ceil(first.total / 25));
  const last = await page(`${base}${sep}page=${pages}&per_page=25`);
  return { name, total: first.total, first_page: first, last_page: { page: pages, ...last } };
}

let lists;
try {
  const org = template.organizationUuid;
  const webhooks = await get(`/api/webhooks?organization_uuid=${org}`);
  const webhook = (webhooks.body.items[0] as { uuid: string } | undefined)?.uuid;
  if (!webhook) throw new Error('the big organization has no webhook');
  lists = [
    await firstAndLast('qrcodes', `/api/qrcodes?organization_uuid=${org}`),
    await firstAndLast('appointments', `/api/appointment_schedule?organization_uuid=${org}`),
    await firstAndLast('tasks', `/api/background-tasks?organization_uuid=${org}`),
    await firstAndLast('deliveries', `/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${org}`),
  ];
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const report = {
  bench: 'big-org-lists',
  organization: template.sizes,
  populate_seconds: template.populateSeconds === null ? 'reused' : round(template.populateSeconds),
  runs: RUNS,
  load_average_1m: round(os.loadavg()[0] ?? NaN),
  lists,
  targets: Object.fromEntries(
    lists.flatMap((list) => [
      [`${list.name}_first_page_ms`, target(list.first_page.p50_ms, LIMIT_MS)],
      [`${list.name}_last_page_ms`, target(list.last_page.p50_ms, LIMIT_MS)],
    ]),
  ),
};
console.log(JSON.stringify(report, null, 2));
