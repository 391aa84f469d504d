import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LARGE } from '../fixtures/hostile/generate.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';

const HOSTILE = new URL('../fixtures/hostile/', import.meta.url).pathname;

interface Case {
  file?: string;
  large?: string;
  body?: string;
  filename?: string;
  endpoint?: string;
  method?: string;
  send?: 'file' | 'json' | 'text';
  fields?: Record<string, string>;
  expect: { status: number; code?: string; message?: string; imported?: number; excluded?: number; task?: string };
}

interface Manifest {
  defaults: { endpoint: string; method: string; send: 'file' | 'json'; fields: Record<string, string> };
  cases: Case[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(HOSTILE, 'manifest.json'), 'utf8')) as Manifest;

interface Answer {
  error?: { code: string; message: string };
  inserted?: number;
  excluded?: number | unknown[];
  excluded_count?: number;
  qr_code_inserted?: number;
  updated?: number;
  restored?: number;
  qr_code_updated?: number;
  qr_code_restored?: number;
  excluded_data?: { error: string }[];
  excluded_qr_codes?: { error: string }[];
  background_task_uuid?: string;
}

function label(c: Case): string {
  return `${c.file ?? c.large ?? c.body?.slice(0, 60)}${c.filename ? ` named ${c.filename}` : ''} -> ${c.method ?? manifest.defaults.method} ${c.endpoint ?? manifest.defaults.endpoint} (${c.send ?? manifest.defaults.send})`;
}

describe('hostile inputs: each gets a clear 4xx or a per-row exclusion, and the server stays up under 500 MB', () => {
  let server: ChildServer;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-hostile-'));
    server = await startChildServer(path.join(tmp, 'data'));
  });
  after(async () => {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the corpus holds at least 50 inputs, every file exists or is generated', () => {
    assert.ok(manifest.cases.length >= 50, `only ${manifest.cases.length} cases`);
    for (const c of manifest.cases) {
      if (c.file) assert.ok(fs.existsSync(path.join(HOSTILE, 'files', c.file)), `missing fixture ${c.file}`);
      if (c.large) assert.ok(LARGE[c.large], `no generator for ${c.large}`);
    }
  });

  /**
   * Generated inputs, made once before the first request: generating one blocks this process for
   * seconds, and a pooled keep-alive connection the server closed meanwhile fails the next upload.
   */
  const generated = new Map<string, Buffer>();
  before(() => {
    for (const c of manifest.cases) {
      const make = c.large ? LARGE[c.large] : undefined;
      if (c.large && make && !generated.has(c.large)) generated.set(c.large, make());
    }
  });

  const bytesOf = (c: Case, org: string): Buffer => {
    let bytes: Buffer;
    if (c.file) bytes = fs.readFileSync(path.join(HOSTILE, 'files', c.file));
    else if (c.large) {
      const made = generated.get(c.large);
      if (!made) throw new Error(`no generator for ${c.large}`);
      bytes = made;
    } else bytes = Buffer.from(c.body ?? '');
    if (bytes.includes('"ORG"')) bytes = Buffer.from(bytes.toString('latin1').replaceAll('"ORG"', JSON.stringify(org)), 'latin1');
    return bytes;
  };

  for (const c of manifest.cases) {
    it(label(c), async () => {
      const org = server.organizationUuid;
      const send = c.send ?? manifest.defaults.send;
      const bytes = bytesOf(c, org);
      let init: RequestInit;
      if (send === 'file') {
        const form = new FormData();
        for (const [key, value] of Object.entries(c.fields ?? manifest.defaults.fields)) form.set(key, value === 'ORG' ? org : value);
        form.set('file', new Blob([bytes]), c.filename ?? c.file ?? c.large ?? 'upload');
        init = { method: c.method ?? manifest.defaults.method, body: form };
      } else {
        init = {
          method: c.method ?? manifest.defaults.method,
          headers: { 'content-type': send === 'json' ? 'application/json' : 'text/plain' },
          body: bytes,
        };
      }
      const res = await server.request(c.endpoint ?? manifest.defaults.endpoint, init);
      const text = await res.text();
      assert.equal(res.status, c.expect.status, `status ${res.status}: ${text.slice(0, 500)}`);
      const answer = JSON.parse(text) as Answer;
      if (c.expect.code) assert.equal(answer.error?.code, c.expect.code, text.slice(0, 500));
      if (res.status >= 400) {
        const message = answer.error?.message ?? '';
        assert.ok(message.length > 10, `vague message: ${message}`);
        if (c.expect.message) assert.match(message, new RegExp(c.expect.message, 'i'));
      } else if (c.expect.imported !== undefined || c.expect.excluded !== undefined) {
        const imported = ['inserted', 'updated', 'restored', 'qr_code_inserted', 'qr_code_updated', 'qr_code_restored'].reduce(
          (sum, key) => sum + (typeof answer[key as keyof Answer] === 'number' ? Number(answer[key as keyof Answer]) : 0),
          0,
        );
        const excluded = typeof answer.excluded === 'number' ? answer.excluded : answer.excluded_count;
        const rows = answer.excluded_data ?? answer.excluded_qr_codes ?? [];
        if (c.expect.imported !== undefined) assert.equal(imported, c.expect.imported, text.slice(0, 500));
        if (c.expect.excluded !== undefined) assert.equal(excluded, c.expect.excluded, text.slice(0, 500));
        if (c.expect.message)
          assert.ok(
            rows.some((row) => new RegExp(c.expect.message ?? '', 'i').test(row.error)),
            `no excluded row matches /${c.expect.message}/: ${text.slice(0, 500)}`,
          );
      }
      if (c.expect.task) {
        const uuid = answer.background_task_uuid;
        assert.ok(uuid);
        let status = '';
        // Only there to end a stuck test: a workbook bomb on a loaded machine can take minutes to refuse.
        const giveUp = Date.now() + 15 * 60_000;
        while (status !== 'COMPLETED' && status !== 'FAILED' && Date.now() < giveUp) {
          await new Promise((r) => setTimeout(r, 100));
          status = ((await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string }).status;
        }
        assert.equal(status, c.expect.task);
      }
      const health = await server.request('/api/health');
      assert.equal(health.status, 200, 'the server stopped answering');
    });
  }

  it('uploaded file names were never used as paths', () => {
    const uploads = path.join(server.dataDir, 'uploads');
    const names = fs.existsSync(uploads) ? fs.readdirSync(uploads) : [];
    for (const name of names) assert.match(name, /^[0-9a-f-]{36}\.upload$/);
    assert.equal(fs.existsSync(path.join(server.dataDir, 'passwd')), false);
    assert.equal(fs.existsSync(path.join(path.dirname(server.dataDir), 'passwd')), false);
  });

  it('peak memory of the server stayed under 500 MB', () => {
    const peak = server.peakRssMb();
    assert.ok(peak < 500, `VmHWM ${peak} MB`);
  });
});
