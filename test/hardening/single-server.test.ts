import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../server/server.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { startCli } from '../support/cli.ts';
import { SLOW_GEOCODER_MODULE } from '../support/slow-geocoder.ts';
import { jobAttempts as attemptsOf } from '../support/import-db.ts';

const LOCK_FILE = 'qr-sandbox.lock';

const readLock = (dataDir: string) => JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as { pid: number; url?: string };

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** `serve` on a data folder that is in use: it must end by itself, with status 1. */
const secondServe = (dataDir: string) => startCli(['serve', '--port', '0', '--data-dir', dataDir], { timeoutMs: 30_000 }).done;

describe('one server per data folder', () => {
  let tmp: string;
  let first: ChildServer | undefined;
  const geocoder = process.env.QR_SANDBOX_GEOCODER_MODULE;
  const restoreGeocoder = () => {
    if (geocoder === undefined) delete process.env.QR_SANDBOX_GEOCODER_MODULE;
    else process.env.QR_SANDBOX_GEOCODER_MODULE = geocoder;
  };
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-single-'));
  });
  after(async () => {
    await first?.kill();
    restoreGeocoder();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a second start says where the first runs and exits 2 without resuming its import', async () => {
    const dataDir = path.join(tmp, 'busy');
    // A slow geocoder keeps the import running while the second start is tried.
    process.env.QR_SANDBOX_GEOCODER_MODULE = SLOW_GEOCODER_MODULE;
    first = await startChildServer(dataDir);
    restoreGeocoder();

    const file = path.join(tmp, 'rows.csv');
    const lines = ['name,location'];
    for (let i = 0; i < 3_000; i++) lines.push(`Site ${i},"${i} High Street, Carlton VIC 3053"`);
    fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    const form = new FormData();
    form.set('organization_uuid', first.organizationUuid);
    form.set('file', await fs.openAsBlob(file), 'rows.csv');
    const posted = await first.request('/api/qrcodes/bulk', { method: 'POST', body: form });
    assert.equal(posted.status, 202, await posted.clone().text());
    const uuid = ((await posted.json()) as { background_task_uuid: string }).background_task_uuid;
    await waitFor('the import to start', () => (attemptsOf(dataDir, uuid) === 1 ? true : undefined));

    const second = await secondServe(dataDir);
    assert.equal(second.code, 2, second.stdout + second.stderr);
    assert.equal(
      second.stderr.trim(),
      `Error: QR Sandbox is already running with this data folder at ${first.url} (pid ${first.child.pid}); ` +
        'stop it first or use --data-dir for another folder.',
    );
    assert.equal(attemptsOf(dataDir, uuid), 1, 'the running import was not taken over');
    const task = (await (await first.request(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string };
    assert.equal(task.status, 'PROCESSING');
    assert.equal((await first.request('/api/health')).status, 200, 'the first server goes on');
    assert.deepEqual(readLock(dataDir), { pid: first.child.pid, url: first.url });
  });

  it('a lock left by kill -9 is taken over; a clean stop removes the lock', async () => {
    const dataDir = path.join(tmp, 'busy');
    await first?.kill();
    assert.ok(fs.existsSync(path.join(dataDir, LOCK_FILE)), 'kill -9 leaves the lock file');
    first = await startChildServer(dataDir);
    assert.equal(readLock(dataDir).pid, first.child.pid);
    assert.equal(await first.stop(), 0);
    first = undefined;
    assert.ok(!fs.existsSync(path.join(dataDir, LOCK_FILE)), 'a clean stop removes the lock file');
  });

  it('of two servers started at once on a new folder, exactly one runs', async () => {
    const dataDir = path.join(tmp, 'race');
    const starts = [0, 1].map(() => startCli(['serve', '--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000 }));
    const outcomes = await Promise.all(
      starts.map((start) =>
        Promise.race([start.waitFor(/running at http/).then(() => 'running' as const), start.done.then(() => 'exited' as const)]),
      ),
    );
    assert.deepEqual([...outcomes].sort(), ['exited', 'running'], JSON.stringify(outcomes));
    const loser = starts[outcomes.indexOf('exited')];
    const result = await loser?.done;
    assert.equal(result?.code, 2);
    assert.match(result?.stderr ?? '', /QR Sandbox is already (running|starting) with this data folder/);
    const winner = readLock(dataDir);
    assert.equal((await fetch(`${winner.url}/api/health`)).status, 200);
    process.kill(winner.pid, 'SIGTERM');
    await starts[outcomes.indexOf('running')]?.done;
  });

  it('in one process too: a second startServer on the same folder is refused until the first closes', async () => {
    const dataDir = path.join(tmp, 'in-process');
    const running = await startServer({ dataDir, port: 0, logLevel: 'warn' });
    try {
      await assert.rejects(startServer({ dataDir, port: 0, logLevel: 'warn' }), {
        name: 'StartupError',
        message: new RegExp(`already running with this data folder at ${running.url.replaceAll('.', '\\.')} \\(pid ${process.pid}\\)`),
      });
    } finally {
      await running.close();
    }
    const again = await startServer({ dataDir, port: 0, logLevel: 'warn' });
    await again.close();
  });
});
