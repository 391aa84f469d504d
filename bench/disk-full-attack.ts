import fs from 'node:fs';
import path from 'node:path';
import { fillDisk, mountTmpfs, tmpfsUnavailable } from '../test/support/tmpfs.ts';
import { addressCsv } from '../test/support/imports.ts';
import { pollHealth } from './health-poll.ts';
import { round, startChildServer, type ChildServer } from './support.ts';

const DISK_MB = Number(process.env.ATTACK_DISK_MB ?? 64);
const IMPORT_ROWS = 20_000;
/** Rounds of writes (an API write, an upload, an inbox post) sent while the disk is full. */
const FULL_ROUNDS = Number(process.env.ATTACK_DISK_ROUNDS ?? 300);

type Counts = Record<string, number>;
const count = (counts: Counts, key: string | number) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

const json = (server: ChildServer, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: server.auth, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function upload(server: ChildServer, csv: string): RequestInit {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', new Blob([csv]), 'sites.csv');
  return { method: 'POST', headers: { authorization: server.auth }, body: form };
}

async function status(request: Promise<Response>): Promise<number | string> {
  try {
    const res = await request;
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'error';
  }
}

async function taskEnd(server: ChildServer, uuid: string): Promise<{ status: string; error_message: string | null }> {
  for (;;) {
    const res = await fetch(`${server.url}/api/background-tasks/uuid/${uuid}`, { headers: { authorization: server.auth } });
    const task = (await res.json()) as { status: string; error_message: string | null };
    if (task.status === 'COMPLETED' || task.status === 'FAILED') return task;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A server whose data folder is on a small tmpfs: an import runs while the disk is filled, then
 * API writes, uploads and inbox posts are sent to the full disk while health is polled; the filler
 * is deleted and the same writes must work again, without a restart.
 */
export async function diskFullAttack(): Promise<Record<string, unknown>> {
  const unavailable = tmpfsUnavailable();
  if (unavailable) return { skipped: unavailable };
  const disk = mountTmpfs(DISK_MB);
  const filler = path.join(disk.dir, 'filler');
  let server: ChildServer | undefined;
  try {
    server = await startChildServer(path.join(disk.dir, 'data'));
    const s = server;
    const inbox = (
      (await (await fetch(`${s.url}/api/inboxes`, json(s, { organization_uuid: s.organizationUuid, name: 'full' }))).json()) as {
        uuid: string;
      }
    ).uuid;
    const csv = addressCsv(IMPORT_ROWS, 'disk-full');

    const accepted = (await (await fetch(`${s.url}/api/qrcodes/bulk`, upload(s, csv))).json()) as { background_task_uuid: string };
    let filled = fillDisk(filler);
    const importTask = await taskEnd(s, accepted.background_task_uuid);
    // The import gave up the data folder's reserve to record its end: the disk is kept full, as by another program.
    filled += fillDisk(filler);
    const filled_mb = round(filled / 1024 / 1024, 1);
    // From here: the fill blocks this process, its time is not the server's.
    const stopHealth = pollHealth(s);
    const whileFull: Record<string, Counts> = { api_write: {}, upload: {}, inbox_post: {}, api_read: {} };
    for (let i = 0; i < FULL_ROUNDS; i++) {
      const [write, sent, posted, read] = await Promise.all([
        status(
          fetch(
            `${s.url}/api/qrcodes`,
            json(s, { organization_uuid: s.organizationUuid, location: `${i} High Street, Richmond VIC 3121` }),
          ),
        ),
        status(fetch(`${s.url}/api/qrcodes/bulk`, upload(s, addressCsv(50, `full-${i}`)))),
        status(
          fetch(`${s.url}/inbox/${inbox}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payload":"x"}' }),
        ),
        status(fetch(`${s.url}/api/qrcodes?organization_uuid=${s.organizationUuid}&per_page=5`, { headers: { authorization: s.auth } })),
      ]);
      count(whileFull.api_write!, write);
      count(whileFull.upload!, sent);
      count(whileFull.inbox_post!, posted);
      count(whileFull.api_read!, read);
    }

    const freed = performance.now();
    fs.rmSync(filler);
    for (;;) {
      const health = (await (await fetch(`${s.url}/api/health`)).json()) as { disk_full: boolean };
      if (!health.disk_full) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const clearedAfterMs = round(performance.now() - freed, 0);
    const after = {
      api_write: await status(
        fetch(`${s.url}/api/qrcodes`, json(s, { organization_uuid: s.organizationUuid, location: '1 High Street, Richmond VIC 3121' })),
      ),
      inbox_post: await status(
        fetch(`${s.url}/inbox/${inbox}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payload":"x"}' }),
      ),
      import: await (async () => {
        const again = (await (await fetch(`${s.url}/api/qrcodes/bulk`, upload(s, csv))).json()) as { background_task_uuid: string };
        return (await taskEnd(s, again.background_task_uuid)).status;
      })(),
    };
    const health = await stopHealth();
    const log = fs.readFileSync(path.join(s.dataDir, 'logs', 'qr-sandbox.log'), 'utf8');
    const dropped = [...log.matchAll(/"dropped_lines":(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    return {
      disk_mb: DISK_MB,
      filled_mb,
      import_while_filling: { status: importTask.status, message: importTask.error_message },
      while_full: whileFull,
      health_while_attacked: health,
      banner_cleared_after_freeing_ms: clearedAfterMs,
      after_freeing: after,
      log: { dropped_lines: dropped, ends_with_whole_line: log.endsWith('\n') },
      server_up: s.child.exitCode === null && s.child.signalCode === null,
    };
  } finally {
    fs.rmSync(filler, { force: true });
    await server?.stop();
    disk.unmount();
  }
}
