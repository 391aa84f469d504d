import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import { type ChildServer, startChildServer } from '../support/child-server.ts';
import { GATE_DIR_ENV, GATE_GEOCODER_MODULE, GATE_MARK } from '../support/gate-geocoder.ts';
import { addressCsv } from '../support/imports.ts';
import { fillDisk, mountTmpfs, tmpfsUnavailable } from '../support/tmpfs.ts';
import { writeUntilRefused } from '../support/write-until-refused.ts';

const unavailable = tmpfsUnavailable();
const DISK_MB = 24;

interface ErrorAnswer {
  error: { code: string; message: string };
}

const json = (value: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

function csvUpload(csv: string, organizationUuid: string): RequestInit {
  const form = new FormData();
  form.set('organization_uuid', organizationUuid);
  form.set('file', new Blob([csv]), 'sites.csv');
  return { method: 'POST', body: form };
}

describe('a full disk (the data folder on a real 24 MB tmpfs)', { skip: unavailable ?? false }, () => {
  let disk: { dir: string; unmount(): void };
  let gate: string;
  let server: ChildServer;
  let filler: string;
  let previousGeocoder: string | undefined;

  const qrCount = async () => {
    const res = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=1`);
    assert.equal(res.status, 200, 'a list is read while the disk is full');
    return ((await res.json()) as { total: number }).total;
  };
  const createQrCode = (i: number) =>
    server.request('/api/qrcodes', json({ organization_uuid: server.organizationUuid, location: `${i} High Street, Richmond VIC 3121` }));
  const health = async () => (await (await server.request('/api/health')).json()) as { status: string; disk_full: boolean };
  const task = async (uuid: string) =>
    (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string; error_message: string | null };
  const untilTaskEnds = async (uuid: string) => {
    for (let polls = 0; ; polls++) {
      const state = await task(uuid);
      if (state.status === 'COMPLETED' || state.status === 'FAILED') return state;
      assert.ok(polls < 1200, `the task ends (it is ${JSON.stringify(state)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  before(async () => {
    disk = mountTmpfs(DISK_MB);
    gate = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-gate-'));
    filler = path.join(disk.dir, 'filler');
    previousGeocoder = process.env.QR_SANDBOX_GEOCODER_MODULE;
    process.env.QR_SANDBOX_GEOCODER_MODULE = GATE_GEOCODER_MODULE;
    process.env[GATE_DIR_ENV] = gate;
    server = await startChildServer(path.join(disk.dir, 'data'));
  });
  // A test that failed half way leaves no full disk to the next.
  afterEach(() => fs.rmSync(filler, { force: true }));
  after(async () => {
    await server?.kill();
    if (previousGeocoder === undefined) delete process.env.QR_SANDBOX_GEOCODER_MODULE;
    else process.env.QR_SANDBOX_GEOCODER_MODULE = previousGeocoder;
    delete process.env[GATE_DIR_ENV];
    disk?.unmount();
    fs.rmSync(gate, { recursive: true, force: true });
  });

  it('writes are refused with 507 or 503 and a message, reads and the server go on, and all works again once space is freed', async () => {
    const inbox = (await (
      await server.request('/api/inboxes', json({ organization_uuid: server.organizationUuid, name: 'full' }))
    ).json()) as {
      uuid: string;
    };
    const before = await qrCount();
    fillDisk(filler);

    // SQLite first reuses the room its WAL already has: writes go on until it needs more.
    const { accepted: created, refused } = await writeUntilRefused(createQrCode, {
      attempts: 500,
      isRefusal: (res) => res.status !== 201,
      what: 'a write',
    });
    assert.equal(refused.status, 507);
    const answer = (await refused.json()) as ErrorAnswer;
    assert.equal(answer.error.code, 'INSUFFICIENT_STORAGE');
    assert.match(
      answer.error.message,
      /^The disk is full: free some space on the drive that holds the data folder \(.+\), then try again\.$/,
    );
    assert.ok(answer.error.message.includes(server.dataDir), 'the message names the data folder');
    assert.equal(await qrCount(), before + created, 'every 201 is stored, nothing else');
    assert.equal((await health()).disk_full, true, 'health says the disk is full');

    const { accepted: stored, refused: notStored } = await writeUntilRefused(
      (i) => fetch(`${server.url}/inbox/${inbox.uuid}`, json({ payload: 'x'.repeat(8192), n: i })),
      // 400: stored, but not a delivery it can decrypt.
      { attempts: 200, isRefusal: (res) => res.status === 503, what: 'an inbox delivery' },
    );
    assert.equal(notStored.status, 503);
    assert.equal(notStored.headers.get('retry-after'), '5', 'the sender is told when to retry');
    const inboxAnswer = (await notStored.json()) as ErrorAnswer;
    assert.equal(inboxAnswer.error.code, 'INSUFFICIENT_STORAGE');
    assert.match(inboxAnswer.error.message, /not stored: the disk .* is full/);
    const messages = (await (
      await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages?organization_uuid=${server.organizationUuid}&per_page=1`)
    ).json()) as { total: number };
    assert.equal(messages.total, stored, 'every 200 is stored, the refused one not');

    const upload = await server.request('/api/qrcodes/bulk', csvUpload(addressCsv(2000, 'full'), server.organizationUuid));
    assert.equal(upload.status, 507, 'an upload that does not fit');
    assert.match(((await upload.json()) as ErrorAnswer).error.message, /^The disk is full/);
    assert.deepEqual(fs.readdirSync(path.join(server.dataDir, 'uploads')), [], 'no part of the refused upload is left behind');
    // The refused writes gave back the room they had taken: filled again, reads are answered while their log lines are dropped.
    fillDisk(filler);
    for (let i = 0; i < 20; i++) assert.equal((await server.request('/api/health')).status, 200);
    assert.equal(server.child.exitCode, null, 'the server is still running');

    fs.rmSync(filler);
    for (let i = 0; (await health()).disk_full; i++) {
      assert.ok(i < 400, 'health no longer says the disk is full');
      await new Promise((r) => setTimeout(r, 50));
    }
    const again = await createQrCode(9999);
    assert.equal(again.status, 201, 'a write works again, no restart');
    assert.equal(await qrCount(), before + created + 1);
    const delivered = await fetch(`${server.url}/inbox/${inbox.uuid}`, json({ payload: 'again' }));
    assert.equal(delivered.status, 400, 'stored (and not decrypted: it is no delivery)');
    const accepted = await server.request('/api/qrcodes/bulk', csvUpload(addressCsv(20, 'after'), server.organizationUuid));
    assert.equal(accepted.status, 202);
    const imported = await untilTaskEnds(((await accepted.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(imported.status, 'COMPLETED');

    // The log: whole JSON lines only, and one saying how many were dropped while the disk was full.
    await server.request('/api/health');
    const lines = fs.readFileSync(logFile(server.dataDir), 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the log ends with a whole line');
    const entries = lines.map((line) => JSON.parse(line) as { dropped_lines?: number; msg: string });
    assert.ok(
      entries.some((e) => (e.dropped_lines ?? 0) > 0 && /log lines were dropped/.test(e.msg)),
      'the log says how many lines it dropped',
    );
  });

  it('an import whose batch cannot be committed ends FAILED saying the disk is full, and counts only the rows committed', async () => {
    const before = await qrCount();
    const csv = addressCsv(6000, 'batch').replace('5001 High Street, ', `5001 High Street ${GATE_MARK}, `);
    const accepted = await server.request('/api/qrcodes/bulk', csvUpload(csv, server.organizationUuid));
    assert.equal(accepted.status, 202);
    const uuid = ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid;
    // The first batch (5,000 rows) committed; the second waits at its first row while the disk fills.
    for (let polls = 0; !fs.existsSync(path.join(gate, 'waiting')); polls++) {
      assert.ok(polls < 3000, 'the import reached its second batch');
      await new Promise((r) => setTimeout(r, 20));
    }
    fillDisk(filler);
    fs.writeFileSync(path.join(gate, 'open'), '');

    const failed = await untilTaskEnds(uuid);
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.error_message ?? '', /^The import stopped: the disk is full\. The first 5,000 rows were done/);
    assert.match(failed.error_message ?? '', /Free some space on the drive that holds the data folder/);
    assert.equal(await qrCount(), before + 5000, 'the rows the message counts are the rows stored');
    assert.equal((await health()).disk_full, true, 'the failed import makes health (and the GUI banner) say the disk is full');
    assert.equal(server.child.exitCode, null, 'the server is still running');

    fs.rmSync(filler);
    for (let i = 0; (await health()).disk_full; i++) {
      assert.ok(i < 400, 'health no longer says the disk is full');
      await new Promise((r) => setTimeout(r, 50));
    }
    const retried = await server.request('/api/qrcodes/bulk', csvUpload(csv, server.organizationUuid));
    assert.equal(retried.status, 202);
    const done = await untilTaskEnds(((await retried.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(done.status, 'COMPLETED', 'the same file imports once space is back');
    assert.equal(await qrCount(), before + 6000, 'the first 5,000 matched, not duplicated');
  });

  it('a start on a disk that is still full serves reads, and a write gets 201 or 507', async () => {
    const before = await qrCount();
    await server.stop();
    // The state a clean stop or a crash can leave: no shared-memory file, which the start's check of
    // the database must then make on a disk with no byte left (it was once refused as "damaged").
    fs.rmSync(path.join(server.dataDir, 'qr-sandbox.db-shm'), { force: true });
    fillDisk(filler);
    server = await startChildServer(server.dataDir);
    assert.equal(await qrCount(), before);
    const written = await createQrCode(1);
    await written.body?.cancel();
    assert.ok(written.status === 201 || written.status === 507, `a write answers 201 or 507, not ${written.status}`);
    fs.rmSync(filler);
  });
});
