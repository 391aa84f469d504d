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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storedExcludedRows } from '../test/support/import-db.ts';
import { diskFullAttack } from './disk-full-attack.ts';
import { writeHugeCellXlsx, writeHugeSharedStringXlsx, writeNumberArray, writePoisonCsv } from './attack-files.ts';
import { writeQrBenchCsv } from './qr-data.ts';
import { percentile, round, startChildServer, target, type ChildServer, type Target } from './support.ts';

const MB = 1024 * 1024;
const FLOOD_POSTS = Number(process.env.ATTACK_FLOOD_POSTS ?? 20_000);
const LOOP_SECONDS = Number(process.env.ATTACK_LOOP_SECONDS ?? 20);
const CSV_ROWS = Number(process.env.ATTACK_CSV_ROWS ?? 1_000_000);
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
  health: { count: number; failed: number; p50_ms: number; p99_ms: number; max_ms: number };
  server_up: boolean;
}

/** Polls /api/health back to back (25 ms apart) and samples memory and the data folder while `work` runs. */
async function watch<T>(server: ChildServer, work: () => Promise<T>): Promise<{ watched: Watched; result: T }> {
  const pid = server.child.pid ?? 0;
  const startBytes = dirBytes(server.dataDir);
  const started = performance.now();
  const latencies: number[] = [];
  let failed = 0;
  let peak = treeRssMb(pid);
  let maxBytes = startBytes;
  let done = false;
  const health = (async () => {
    while (!done) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRssMb(pid));
    maxBytes = Math.max(maxBytes, dirBytes(server.dataDir));
  }, 250);
  try {
    const result = await work();
    return {
      result,
      watched: {
        seconds: round((performance.now() - started) / 1000, 1),
        peak_rss_mb: round(peak, 0),
        data_dir_growth_mb: round((Math.max(maxBytes, dirBytes(server.dataDir)) - startBytes) / MB, 1),
        health: {
          count: latencies.length,
          failed,
          p50_ms: round(percentile(latencies, 50)),
          p99_ms: round(percentile(latencies, 99)),
          max_ms: round(Math.max(...latencies, 0)),
        },
        server_up: server.child.exitCode === null && server.child.signalCode === null,
      },
    };
  } finally {
    done = true;
    clearInterval(sampler);
    await health;
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

  const server = await startChildServer(path.join(tmp, 'data'), ['--import-workers', '4']);
  const attacks: Record<string, unknown> = {};
  const targets: Record<string, Target> = {};
  try {
    const idle = await watch(server, () => new Promise((r) => setTimeout(r, 5000)));
    const floor = idle.watched.health.p99_ms;
    const run = async (name: string, files: (() => string)[], work: () => Promise<unknown>) => {
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
    await run('7a_disk_full', [], () => diskFullAttack());

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
