import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RotatingLogFile, rotatedLogFile } from '../../server/log-file.ts';
import { logFile } from '../../server/logger.ts';
import { type ChildServer, PROJECT_ROOT, startChildServer } from '../support/child-server.ts';

const MAX_BYTES = 4096;
const FILES = 3;
const REQUESTS = 200;

const logNames = (dir: string) => fs.readdirSync(dir).sort();

describe('the log rotates by size and keeps a few files', () => {
  let tmp: string;
  let server: ChildServer;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-log-rotation-'));
    const dataDir = path.join(tmp, 'data');
    // Left by an earlier run kept more files: deleted at the first rotation.
    fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
    fs.writeFileSync(rotatedLogFile(logFile(dataDir), 7), '{"msg":"old"}\n');
    server = await startChildServer(dataDir, ['--log-max-mb', String(MAX_BYTES / 1024 / 1024), '--log-files', String(FILES)]);
  });
  after(async () => {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(`${REQUESTS} requests with a 4 KB log: ${FILES} files kept, each within the size, whole JSON lines, none lost across a rotation`, async () => {
    for (let i = 0; i < REQUESTS; i++) {
      const res = await server.request(`/api/rotation-probe-${i}`);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
    assert.equal(await server.stop(), 0);

    const file = logFile(server.dataDir);
    const kept = Array.from({ length: FILES }, (_, n) => rotatedLogFile(file, n));
    assert.deepEqual(logNames(path.dirname(file)), kept.map((f) => path.basename(f)).sort(), 'exactly the kept files, the old .7 gone');
    const probes: number[] = [];
    for (const f of kept.toReversed()) {
      const text = fs.readFileSync(f, 'utf8');
      assert.ok(Buffer.byteLength(text) <= MAX_BYTES, `${path.basename(f)} is ${Buffer.byteLength(text)} bytes`);
      assert.ok(text.endsWith('\n'), `${path.basename(f)} ends with a whole line`);
      if (process.platform !== 'win32') assert.equal(fs.statSync(f).mode & 0o777, 0o600);
      for (const line of text.trimEnd().split('\n')) {
        const entry = JSON.parse(line) as { path?: string };
        const probe = /^\/api\/rotation-probe-(\d+)$/.exec(entry.path ?? '');
        if (probe) probes.push(Number(probe[1]));
      }
    }
    // Oldest file first: the kept probes are the last ones, in order, with none missing.
    assert.ok(probes.length > 20, `kept ${probes.length} probe lines`);
    assert.ok(probes.length < REQUESTS, 'older lines rotated away');
    const first = REQUESTS - probes.length;
    assert.deepEqual(
      probes,
      Array.from({ length: probes.length }, (_, i) => first + i),
    );
    assert.match(fs.readFileSync(file, 'utf8'), /"msg":"stopped"/, 'the shutdown lines are in the current file');
  });
});

describe('log rotation settings', () => {
  const serve = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(
      process.execPath,
      ['bin/qr-sandbox.mjs', 'serve', '--port', '0', '--data-dir', path.join(os.tmpdir(), 'qr-never-made'), ...args],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      },
    );

  it('a bad flag or environment value is refused with a message naming it, before anything starts', () => {
    const files = serve(['--log-files', '0']);
    assert.equal(files.status, 2);
    assert.match(files.stderr, /--log-files must be a whole number from 1 to 1000, not "0"/);
    const size = serve([], { QR_SANDBOX_LOG_MAX_MB: 'lots' });
    assert.equal(size.status, 2);
    assert.match(size.stderr, /--log-max-mb \(QR_SANDBOX_LOG_MAX_MB\) must be a number of megabytes/);
    assert.match(serve(['--help']).stdout, /--log-max-mb.*Default 10[\s\S]*--log-files.*Default 5/);
  });
});

describe('RotatingLogFile', () => {
  it('with one file kept, starts the file again; a write larger than the size is written whole', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-log-file-'));
    try {
      const file = path.join(dir, 'x.log');
      const log = new RotatingLogFile(file, { maxBytes: 10, files: 1 });
      log.write('aaaa\n');
      log.write('bbbb\n');
      log.write('cccc\n');
      log.write('a line longer than ten bytes\n');
      log.close();
      assert.deepEqual(fs.readdirSync(dir), ['x.log']);
      assert.equal(fs.readFileSync(file, 'utf8'), 'a line longer than ten bytes\n');
      const reopened = new RotatingLogFile(file, { maxBytes: 100, files: 2 });
      reopened.write('next\n');
      reopened.close();
      assert.equal(fs.readFileSync(file, 'utf8'), 'a line longer than ten bytes\nnext\n', 'appends to the file it finds');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the old files cannot be moved (held by another program), it goes on appending and loses nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-log-file-'));
    try {
      const file = path.join(dir, 'x.log');
      fs.mkdirSync(path.join(dir, 'x.1.log'));
      fs.writeFileSync(path.join(dir, 'x.1.log', 'in-the-way'), '');
      const log = new RotatingLogFile(file, { maxBytes: 10, files: 2 });
      for (const line of ['one\n', 'two\n', 'three\n']) log.write(line);
      log.close();
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
