/**
 * The six attacks of issue 16 at full size against a live server (npm run bench -- attacks):
 * a 200 MB CSV whose second row is one 200 MB cell; an inbox forwarding to its own URL in upper
 * case; workbooks with a 1 GB cell and a 2 GB shared string (one, then four at once); a 20 MB JSON
 * array of 10 million numbers; two of those at once and 1M-row CSV imports two and four at once;
 * 20,000 POSTs of 100 KB to one inbox. For each: the server's memory (its process and its workers),
 * the data folder's growth, /api/health latency polled throughout (target p99 < 100 ms, against
 * the idle p99 measured first, in the same run), and what the server answered. Prints JSON.
 * ATTACK_FLOOD_POSTS, ATTACK_LOOP_SECONDS, ATTACK_CSV_ROWS shrink it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { storedExcludedRows } from '../test/support/import-db.ts';
import { databaseFileOf, populateOrganization } from './big-org.ts';
import { draftAttacks } from './attacks-drafts.ts';
import { diskFullAttack } from './disk-full-attack.ts';
import { controlCharacterSearch, crossOrganizationProfile, foreignSnapshot } from './attacks-boundaries.ts';
import { longPolls } from './attacks-long-polls.ts';
import { remoteDryRun } from './attacks-remote-dry-run.ts';
import { writeHugeCellXlsx, writeHugeSharedStringXlsx, writeNumberArray, writePoisonCsv } from './attack-files.ts';
import { previewAndSyncImport, previewAndSyncImportEach, workbookAttackFiles } from './attacks-workbooks.ts';
import { hangingReceivers } from './hanging-receivers.ts';
import { readerFairness, writeSharedStringHeapWorkbook, writeSlowWorkbook } from './reader-fairness.ts';
import { type HealthPoll, pollHealth } from './health-poll.ts';
import { writeQrBenchCsv } from './qr-data.ts';
import { halfOpenConnections, quickCheckBigDb } from './startup-attacks.ts';
import { percentile, round, startChildServer, target, type ChildServer, type Target } from './support.ts';

const MB = 1024 * 1024;
const FLOOD_POSTS = Number(process.env.ATTACK_FLOOD_POSTS ?? 20_000);
const LOOP_SECONDS = Number(process.env.ATTACK_LOOP_SECONDS ?? 20);
const CSV_ROWS = Number(process.env.ATTACK_CSV_ROWS ?? 1_000_000);
const KEY_ID_BURST = Number(process.env.ATTACK_KEY_IDS ?? 25_000);
const HEALTH_P99_MS = 100;
/** ATTACK_ONLY=5_csv,6_ runs the attacks whose name contains one of these. */
const ONLY = process.env.ATTACK_ONLY?.split(',').filter(Boolean);

function treeRssMb(pid: number): number {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const walk = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const [child, parent] of parents) if (parent === p) walk(child);
  };
  walk(pid);
  return kb / 1024;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

interface Watched {
  seconds: number;
  peak_rss_mb: number;
  data_dir_growth_mb: number;
  health: HealthPoll;
  server_up: boolean;
}

/** Polls /api/health (pollHealth) and samples memory and the data folder while `work` runs. */
async function watch<T>(server: ChildServer, work: () => Promise<T>): Promise<{ watched: Watched; result: T }> {
  const pid = server.child.pid ?? 0;
  const startBytes = dirBytes(server.dataDir);
  const started = performance.now();
  let peak = treeRssMb(pid);
  let maxBytes = startBytes;
  const stopHealth = pollHealth(server);
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRssMb(pid));
    maxBytes = Math.max(maxBytes, dirBytes(server.dataDir));
  }, 250);
  try {
    const result = await work();
    const seconds = round((performance.now() - started) / 1000, 1);
    return {
      result,
      watched: {
        seconds,
        peak_rss_mb: round(peak, 0),
        data_dir_growth_mb: round((Math.max(maxBytes, dirBytes(server.dataDir)) - startBytes) / MB, 1),
        health: await stopHealth(),
        server_up: server.child.exitCode === null && server.child.signalCode === null,
      },
    };
  } finally {
    clearInterval(sampler);
    await stopHealth();
  }
}

const auth = (server: ChildServer) => ({ authorization: server.auth });

async function postFile(
  server: ChildServer,
  file: string,
  endpoint = '/api/qrcodes/bulk',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: auth(server), body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function postJsonFile(server: ChildServer, file: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api/qrcodes/bulk`, {
    method: 'POST',
    headers: { ...auth(server), 'content-type': 'application/json' },
    body: await fs.openAsBlob(file),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface TaskEnd {
  status: string;
  error_message: string | null;
  results: Record<string, unknown> | null;
}

/** Polls the task to its end; a failed poll is retried (the health loop records whether the server answered). */
async function taskEnd(server: ChildServer, uuid: string): Promise<TaskEnd> {
  let failures = 0;
  for (;;) {
    try {
      const task = (await (await fetch(`${server.url}/api/background-tasks/uuid/${uuid}`, { headers: auth(server) })).json()) as TaskEnd;
      failures = 0;
      if (task.status === 'COMPLETED' || task.status === 'FAILED') return task;
    } catch (error) {
      if (++failures > 10) throw error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A background import to its end: the answer, then the task's status and message. */
async function importToEnd(server: ChildServer, post: () => Promise<{ status: number; body: Record<string, unknown> }>) {
  const answer = await post();
  const uuid = answer.body.background_task_uuid;
  if (answer.status !== 202 || typeof uuid !== 'string')
    return { http: answer.status, message: (answer.body.error as { message?: string } | undefined)?.message ?? null };
  const task = await taskEnd(server, uuid);
  return {
    http: answer.status,
    task: task.status,
    message: task.error_message,
    excluded_count: task.results?.excluded_count ?? task.results?.excluded ?? null,
    stored_excluded_rows: storedExcludedRows(server.dataDir, uuid),
    uuid,
  };
}

const errorOf = (r: { status: number; body: Record<string, unknown> }) => ({
  http: r.status,
  message: (r.body.error as { message?: string } | undefined)?.message ?? null,
});

async function inboxMessageCount(server: ChildServer, inbox: string): Promise<number | null> {
  const res = await fetch(`${server.url}/api/inboxes/uuid/${inbox}/messages?organization_uuid=${server.organizationUuid}&per_page=1`, {
    headers: auth(server),
  });
  if (res.status !== 200) return null;
  const page = (await res.json()) as { total?: number; total_count?: number; pagination?: { total?: number; total_count?: number } };
  return page.total ?? page.total_count ?? page.pagination?.total ?? page.pagination?.total_count ?? null;
}

async function createInbox(server: ChildServer, name: string): Promise<string> {
  const res = await fetch(`${server.url}/api/inboxes`, {
    method: 'POST',
    headers: { ...auth(server), 'content-type': 'application/json' },
    body: JSON.stringify({ organization_uuid: server.organizationUuid, name }),
  });
  const body = (await res.json()) as { uuid?: string };
  if (!body.uuid) throw new Error(`inbox not created: ${res.status} ${JSON.stringify(body)}`);
  return body.uuid;
}

async function forwardLoop(server: ChildServer) {
  const inbox = await createInbox(server, 'loop');
  const own = `${server.url}/INBOX/${inbox}`;
  const patch = await fetch(`${server.url}/api/inboxes/uuid/${inbox}`, {
    method: 'PATCH',
    headers: { ...auth(server), 'content-type': 'application/json' },
    body: JSON.stringify({ forward_to: own }),
  });
  const patchBody = (await patch.json()) as Record<string, unknown>;
  const first = await fetch(`${server.url}/inbox/${inbox}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"hello":"loop"}',
  });
  await first.arrayBuffer();
  const counts: (number | null)[] = [];
  for (let s = 0; s < LOOP_SECONDS; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    counts.push(await inboxMessageCount(server, inbox));
  }
  // Ends the loop (if there is one) before the next attack.
  await fetch(`${server.url}/api/inboxes/uuid/${inbox}`, { method: 'DELETE', headers: auth(server) });
  return {
    forward_to_answer: patch.status,
    forward_to_message: (patchBody.error as { message?: string } | undefined)?.message ?? null,
    first_post: first.status,
    messages_after_seconds: counts,
    looped: (counts.at(-1) ?? 0) > 2,
  };
}

async function inboxFlood(server: ChildServer) {
  const inbox = await createInbox(server, 'flood');
  const body = Buffer.alloc(100 * 1024, 'a');
  body.write('{"pad":"', 0);
  body.write('"}', body.length - 2);
  const statuses: Record<string, number> = {};
  let next = 0;
  const deadline = performance.now() + 300_000;
  const client = async () => {
    while (next < FLOOD_POSTS && performance.now() < deadline) {
      next++;
      try {
        const res = await fetch(`${server.url}/inbox/${inbox}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
  return { posts: next, statuses, messages_kept: await inboxMessageCount(server, inbox) };
}

/** 1 MB of control bytes: valid UTF-8 that JSON escapes to six bytes each. */
function controlBytes(seed: number): Buffer {
  const bytes = Buffer.alloc(MB);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i + seed) % 32;
  return bytes;
}

/** Issue 28 item 3: 50 messages of 1 MB of control bytes, listed by the page (per_page 50 and the GUI's 100). */
async function inboxBigList(server: ChildServer) {
  const inbox = await createInbox(server, 'big list');
  const posts: Record<string, number> = {};
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${server.url}/inbox/${inbox}`, { method: 'POST', body: controlBytes(i) });
    await res.arrayBuffer();
    posts[res.status] = (posts[res.status] ?? 0) + 1;
    // The inbox's rate (serve --inbox-max-mb-per-minute) lets 1 MB bodies in at its pace: wait as a sender must.
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      i--;
    }
  }
  const lists: Array<{ per_page: number; status: number; bytes: number; ms: number }> = [];
  const poller = await healthFromAnotherProcess(server);
  const listing = await watch(server, async () => {
    for (let pass = 0; pass < 5; pass++) {
      for (const perPage of [50, 100]) {
        const t0 = performance.now();
        const res = await fetch(
          `${server.url}/api/inboxes/uuid/${inbox}/messages?organization_uuid=${server.organizationUuid}&per_page=${perPage}`,
          { headers: auth(server) },
        );
        const bytes = (await res.arrayBuffer()).byteLength;
        lists.push({ per_page: perPage, status: res.status, bytes, ms: round(performance.now() - t0, 1) });
      }
    }
  });
  const health = await poller.stop();
  await fetch(`${server.url}/api/inboxes/uuid/${inbox}`, { method: 'DELETE', headers: auth(server) });
  return {
    posts,
    lists: lists.slice(0, 2),
    list_ms_max: Math.max(...lists.map((l) => l.ms)),
    while_listing: listing.watched,
    health_from_another_process_while_listing: health,
  };
}

/** A local app that accepts connections and never answers, counting them. */
async function hangingApp(): Promise<{ url: string; peak: () => number; total: () => number; close: () => Promise<void> }> {
  let open = 0;
  let peak = 0;
  let total = 0;
  const app = http.createServer(() => {});
  app.on('connection', (socket) => {
    open++;
    total++;
    peak = Math.max(peak, open);
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`,
    peak: () => peak,
    total: () => total,
    close: () =>
      new Promise((resolve) => {
        app.closeAllConnections();
        app.close(() => resolve());
      }),
  };
}

/**
 * /api/health timed from another process (every 5 ms, after one untimed request), as a GUI or API
 * client sees it: the attack's client shares its thread with watch()'s poller, and its own busy
 * stretches (sending 800 MB) show up there as server latency.
 */
async function healthFromAnotherProcess(
  server: ChildServer,
): Promise<{ stop: () => Promise<{ count: number; p50_ms: number; p99_ms: number; max_ms: number }> }> {
  const script = `
    const url = process.argv[1] + '/api/health';
    const latencies = [];
    let done = false;
    process.stdin.on('end', () => { done = true; }).resume();
    (async () => {
      await (await fetch(url)).arrayBuffer();
      process.stdout.write('ready;');
      while (!done) {
        const t0 = performance.now();
        await (await fetch(url)).arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
      process.stdout.write(JSON.stringify(latencies));
    })();`;
  const child = spawn(process.execPath, ['-e', script, server.url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.startsWith('ready;')) resolve();
    }),
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([ready, exited.then(() => Promise.reject(new Error(`the health poller exited: ${out}`)))]);
  return {
    stop: async () => {
      child.stdin.end();
      await exited;
      const latencies = JSON.parse(out.slice('ready;'.length) || '[]') as number[];
      return {
        count: latencies.length,
        p50_ms: round(percentile(latencies, 50)),
        p99_ms: round(percentile(latencies, 99)),
        max_ms: round(Math.max(...latencies, 0)),
      };
    },
  };
}

/** Issue 28 item 4: 800 POSTs of 1 MB, 32 at a time, to an inbox forwarding to an app that never answers. */
async function inboxFloodForward(server: ChildServer) {
  const app = await hangingApp();
  const inbox = await createInbox(server, 'flood 1 MB');
  await fetch(`${server.url}/api/inboxes/uuid/${inbox}`, {
    method: 'PATCH',
    headers: { ...auth(server), 'content-type': 'application/json' },
    body: JSON.stringify({ forward_to: app.url }),
  });
  const body = controlBytes(0);
  const statuses: Record<string, number> = {};
  let next = 0;
  // node:http rather than fetch: fetch copies each 1 MB body twice, on the thread that also times /api/health.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/inbox/${inbox}`,
        { method: 'POST', agent, headers: { 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const client = async () => {
    while (next < 800) {
      next++;
      const status = await post().catch(() => 'error');
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const poller = await healthFromAnotherProcess(server);
  await Promise.all(Array.from({ length: 32 }, client));
  agent.destroy();
  const health = await poller.stop();
  const result = {
    posts: next,
    statuses,
    messages_kept: await inboxMessageCount(server, inbox),
    outbound_connections_peak: app.peak(),
    outbound_connections_total: app.total(),
    health_from_another_process: health,
  };
  await fetch(`${server.url}/api/inboxes/uuid/${inbox}`, { method: 'DELETE', headers: auth(server) });
  await app.close();
  return result;
}

/**
 * Wrong credentials from one address, each with a key id never seen before (more than the
 * throttle's 10,000 counters): how many were answered 401 (checked against the database) rather
 * than 429, and whether a guess at a real key id afterwards is still throttled.
 */
async function keyIdBurst(server: ChildServer) {
  const statuses: Record<string, number> = {};
  let next = 0;
  const client = async () => {
    while (next < KEY_ID_BURST) {
      const n = next++;
      try {
        const res = await fetch(`${server.url}/api/session`, { headers: { authorization: `Bearer burst-${n}:wrong-secret` } });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
  const apiKey = server.auth.replace(/^Bearer /, '').split(':')[0];
  const guess = await fetch(`${server.url}/api/session`, { headers: { authorization: `Bearer ${apiKey}:wrong-secret` } });
  const right = await fetch(`${server.url}/api/session`, { headers: auth(server) });
  return {
    attempts: next,
    statuses,
    got_through_401: statuses['401'] ?? 0,
    real_key_guess_after: { status: guess.status, retry_after: guess.headers.get('retry-after') },
    right_secret_after: right.status,
  };
}

const SEARCH_QR_CODES = Number(process.env.ATTACK_SEARCH_QRCODES ?? 1_000_000);
const SEARCH_P50_MS = 20;

/** The server's organization grown by SEARCH_QR_CODES QR codes (bench/big-org.ts, direct SQL), once, outside the watched time. */
let searchOrganizationGrown = false;
function growSearchOrganization(server: ChildServer): string {
  if (!searchOrganizationGrown) {
    const sizes = { qrCodes: SEARCH_QR_CODES, appointments: 0, tasks: 0, deliveries: 0 };
    populateOrganization(databaseFileOf(server.dataDir), server.organizationUuid, sizes);
    searchOrganizationGrown = true;
  }
  return server.dataDir;
}

/**
 * Two clients search the big organization back to back for LOOP_SECONDS: a reference, a street
 * number, a site name, one or two digits (the short-search path), and every 20th search a town
 * that every QR code holds (a total of a million). Health is polled meanwhile (watch()).
 */
async function searchLoop(server: ChildServer) {
  const term = (i: number): string => {
    const n = Math.floor(Math.random() * SEARCH_QR_CODES);
    if (i % 20 === 19) return 'Sydney';
    return [`EXISTING-${n - (n % 2)}`, `${n + 1} Existing Street`, `site ${n}`, String(n % 100), `Existing site ${n}`][i % 5] ?? '';
  };
  const all: number[] = [];
  const broad: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const deadline = performance.now() + LOOP_SECONDS * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const i = next++;
      const query = `organization_uuid=${server.organizationUuid}&per_page=20&search=${encodeURIComponent(term(i))}`;
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/qrcodes?${query}`, { headers: auth(server) });
      await res.arrayBuffer();
      (i % 20 === 19 ? broad : all).push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all([client(), client()]);
  const stats = (ms: number[]) => ({
    count: ms.length,
    p50_ms: round(percentile(ms, 50)),
    p99_ms: round(percentile(ms, 99)),
    max_ms: round(Math.max(...ms, 0)),
  });
  return { qr_codes_added: SEARCH_QR_CODES, statuses, search: stats(all), search_of_every_qr_code: stats(broad) };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-attacks-'));
  const files = path.join(tmp, 'files');
  fs.mkdirSync(files);
  process.stderr.write('attacks: making the files...\n');
  const poison = path.join(files, 'poison.csv');
  const cellBomb = path.join(files, 'cell-1gb.xlsx');
  const stringBomb = path.join(files, 'shared-string-2gb.xlsx');
  const numbers = path.join(files, 'numbers-10m.json');
  const rows = path.join(files, `rows-${CSV_ROWS}.csv`);
  const sizes: Record<string, number> = {};
  const made = new Set<string>();
  /** Each file is made before the first attack that needs it, outside the watched time. */
  const make = (file: string, key: string, write: () => number) => {
    if (!made.has(file)) {
      made.add(file);
      sizes[key] = round(write() / MB, 2);
    }
    return file;
  };
  const poisonFile = () => make(poison, 'poison_csv_mb', () => writePoisonCsv(poison, 200 * MB));
  const cellBombFile = () => make(cellBomb, 'cell_bomb_xlsx_mb', () => writeHugeCellXlsx(cellBomb, 1024 * MB));
  const stringBombFile = () => make(stringBomb, 'shared_string_bomb_xlsx_mb', () => writeHugeSharedStringXlsx(stringBomb, 2047 * MB));
  const numbersFile = () => make(numbers, 'number_array_json_mb', () => writeNumberArray(numbers, 10_000_000));
  const rowsFile = () => make(rows, 'csv_mb', () => writeQrBenchCsv(rows, CSV_ROWS));
  const slowWorkbook = path.join(files, 'workbook-pr-1mb-word.xlsx');
  const heapWorkbook = path.join(files, 'shared-string-1mb-480-cells.xlsx');
  // make() records MB; these two are a few KB, recorded in KB.
  const slowWorkbookFile = () => make(slowWorkbook, 'slow_workbook_kb', () => writeSlowWorkbook(slowWorkbook) * 1024);
  const heapWorkbookFile = () => make(heapWorkbook, 'heap_workbook_kb', () => writeSharedStringHeapWorkbook(heapWorkbook) * 1024);

  const server = await startChildServer(path.join(tmp, 'data'), ['--import-workers', '4']);
  const attacks: Record<string, unknown> = {};
  const targets: Record<string, Target> = {};
  try {
    const idle = await watch(server, () => new Promise((r) => setTimeout(r, 5000)));
    const floor = idle.watched.health.p99_ms;
    const run = async (name: string, files: (() => unknown)[], work: () => Promise<unknown>) => {
      if (ONLY && !ONLY.some((part) => name.includes(part))) return;
      for (const file of files) file();
      process.stderr.write(`attacks: ${name}...\n`);
      const { watched, result } = await watch(server, () =>
        work().catch((error: unknown) => ({ bench_error: String(error), cause: String((error as Error).cause ?? '') })),
      );
      attacks[name] = { ...watched, result };
      targets[`${name}_health_p99_ms`] = target(watched.health.p99_ms, HEALTH_P99_MS);
      targets[`${name}_server_up`] = {
        limit: 1,
        value: watched.server_up && watched.health.failed === 0 ? 1 : 0,
        pass: watched.server_up && watched.health.failed === 0,
      };
    };

    await run('1_poison_csv_200mb_cell', [poisonFile], () => importToEnd(server, () => postFile(server, poison)));
    await run('2_forward_loop_upper_case', [], () => forwardLoop(server));
    await run('3_xlsx_1gb_cell', [cellBombFile], async () => errorOf(await postFile(server, cellBomb)));
    await run('3_xlsx_2gb_shared_string', [stringBombFile], async () => errorOf(await postFile(server, stringBomb)));
    await run('3_xlsx_bombs_four_at_once', [cellBombFile, stringBombFile], async () =>
      (await Promise.all([cellBomb, stringBomb, cellBomb, stringBomb].map((f) => postFile(server, f)))).map(errorOf),
    );
    await run('4_json_10m_numbers', [numbersFile], () => importToEnd(server, () => postJsonFile(server, numbers)));
    await run('5_json_10m_numbers_two_at_once', [numbersFile], () =>
      Promise.all([0, 1].map(() => importToEnd(server, () => postJsonFile(server, numbers)))),
    );
    for (const count of [2, 4]) {
      await run(`5_csv_${CSV_ROWS}_rows_${count}_at_once`, [rowsFile], () =>
        Promise.all(Array.from({ length: count }, () => importToEnd(server, () => postFile(server, rows)))),
      );
    }
    await run('6_inbox_flood', [], () => inboxFlood(server));
    await run('7b_hanging_receivers', [], () => hangingReceivers(server));
    await run('7c_inbox_big_list', [], () => inboxBigList(server));
    await run('7d_inbox_flood_1mb_forward', [], () => inboxFloodForward(server));
    await run('7e_half_open_connections', [], () => halfOpenConnections(server));
    await run('7f_quick_check_big_db', [], () => quickCheckBigDb());
    await run('7h_key_id_burst', [], () => keyIdBurst(server));
    await run('7g_search_1m', [() => growSearchOrganization(server)], () => searchLoop(server));
    const searched = (attacks['7g_search_1m'] as { result?: { search?: { p50_ms: number } } } | undefined)?.result?.search;
    if (searched) targets['7g_search_1m_search_p50_ms'] = target(searched.p50_ms, SEARCH_P50_MS);
    await run('8_drafts_replace_kill', [], () => draftAttacks(server));
    await run('7a_disk_full', [], () => diskFullAttack());
    await run('8a_long_polls_and_inbox_flood', [], () => longPolls(server));
    await run('8b_remote_dry_run_form_field', [], () => remoteDryRun(server));
    await run('8c_remote_profile_other_organization', [], () => crossOrganizationProfile(server));
    await run('8d_snapshot_rows_of_another_organization', [], () => foreignSnapshot(server));
    await run('8e_search_control_characters', [], () => controlCharacterSearch(server));
    await run('8_upload_readers_fairness', [slowWorkbookFile, heapWorkbookFile], () =>
      readerFairness(server, { slow: slowWorkbook, heap: heapWorkbook }),
    );
    const workbooks = workbookAttackFiles(files);
    await run('xlsx38_workbookpr_1mb_word', [workbooks.longWord], () => previewAndSyncImport(server, workbooks.longWord()));
    await run('xlsx38_shared_string_480_cells', [workbooks.sharedString480], () =>
      previewAndSyncImport(server, workbooks.sharedString480()),
    );
    await run('xlsx38_overlapping_entries', [workbooks.overlapping], () => previewAndSyncImport(server, workbooks.overlapping()));
    await run('xlsx38_row_999999999999999', [workbooks.farRow], () => previewAndSyncImport(server, workbooks.farRow()));
    await run('xlsx38_date_1e300', [workbooks.farDate], () => previewAndSyncImport(server, workbooks.farDate()));
    await run('xlsx38_header_3x1mb', [workbooks.longHeaders], () => previewAndSyncImport(server, workbooks.longHeaders()));
    await run('xlsx38_cell_comments_cdata', [workbooks.commentsCdata], () =>
      previewAndSyncImport(server, workbooks.commentsCdata(), { rows: true }),
    );
    await run('xlsx38_cell_nul_lone_surrogate', [workbooks.unstorable], () => previewAndSyncImportEach(server, workbooks.unstorable()));
    await run('xlsx38_duplicate_entry_names', [workbooks.duplicateNames], () =>
      previewAndSyncImportEach(server, workbooks.duplicateNames()),
    );
    await run('xlsx38_rows_out_of_order', [workbooks.rowsOutOfOrder], () =>
      previewAndSyncImport(server, workbooks.rowsOutOfOrder(), { rows: true }),
    );
    await run('xls39_ods_billion_cells', [workbooks.odsBillionCells], () => previewAndSyncImport(server, workbooks.odsBillionCells()));
    await run('xls39_ods_500m_spaces', [workbooks.odsSpaces], () => previewAndSyncImport(server, workbooks.odsSpaces()));
    await run('xls39_xls_looping_record', [workbooks.xlsLoop], () => previewAndSyncImport(server, workbooks.xlsLoop()));

    const log = path.join(server.dataDir, 'logs', 'qr-sandbox.log');
    const serverErrors = fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => /"level":(50|60)/.test(line))
          .map((line) => line.slice(0, 400))
      : [];
    attacks.server_log_errors = { count: serverErrors.length, last: serverErrors.slice(-5) };
    const locked = JSON.stringify(attacks).includes('database is locked');
    targets.no_database_is_locked = { limit: 0, value: locked ? 1 : 0, pass: !locked };
    console.log(
      JSON.stringify(
        {
          bench: 'attacks',
          machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((n) => round(n)) },
          files: sizes,
          idle_floor: { health_p99_ms: floor, peak_rss_mb: idle.watched.peak_rss_mb },
          attacks,
          targets,
        },
        null,
        2,
      ),
    );
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
