import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { logFile } from '../../server/logger.ts';
import { GATE_ENV, GATED_GEOCODER_MODULE } from '../demo/support/gated-geocoder.ts';
import { fileUpload } from '../support/imports.ts';
import { jsonBody, startTestServer, tempDataDir } from '../support/server.ts';

const skip = process.platform === 'win32' ? 'no POSIX modes on Windows' : false;

function mode(file: string): string {
  return (fs.statSync(file).mode & 0o777).toString(8).padStart(3, '0');
}

/** Every file and folder under dir, with its mode. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = mode(full);
  }
  return out;
}

async function saveProfile(server: Awaited<ReturnType<typeof startTestServer>>): Promise<void> {
  const res = await server.request(
    '/api/profiles/staging',
    jsonBody({ base_url: 'https://service.example', api_key: 'k', api_secret: 's' }, 'PUT'),
  );
  assert.equal(res.status, 200, await res.clone().text());
}

describe('the data folder is private: folders 0700, files 0600', { skip }, () => {
  it('creates them so under a permissive umask: database, WAL, SHM, log, credentials, profiles, uploads', async () => {
    const parent = tempDataDir('qr-sandbox-perms-');
    const dataDir = path.join(parent, 'data');
    const gate = path.join(parent, 'gate');
    const umask = process.umask(0o022);
    process.env[GATE_ENV] = gate;
    const server = await startTestServer({ dataDir, imports: { geocoderModule: GATED_GEOCODER_MODULE } });
    try {
      await saveProfile(server);
      // An import held in the worker, so its upload is still on disk.
      const accepted = await server.request(
        '/api/qrcodes/bulk',
        fileUpload('location,name\r\n"1 Collins Street, Melbourne VIC 3000",Held\r\n', 'held.csv', {
          organization_uuid: server.organizationUuid,
          processing_mode: 'background',
        }),
      );
      assert.equal(accepted.status, 202, await accepted.clone().text());
      const found = modes(dataDir);
      assert.equal(mode(dataDir), '700');
      for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, 'credentials.json', 'profiles.json'])
        assert.equal(found[file], '600', file);
      assert.equal(found.logs, '700');
      assert.equal(mode(logFile(dataDir)), '600');
      assert.equal(found.uploads, '700');
      const uploads = Object.keys(found).filter((name) => name.startsWith(`uploads${path.sep}`));
      assert.ok(uploads.length >= 1, 'the held upload is on disk');
      for (const name of uploads) assert.equal(found[name], '600', name);
      for (const [name, value] of Object.entries(found)) assert.ok(value === '600' || value === '700', `${name} is ${value}`);
    } finally {
      fs.writeFileSync(gate, '');
      await server.stop();
      delete process.env[GATE_ENV];
      process.umask(umask);
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('tightens what it owns when the folder already exists with looser modes', async () => {
    const dataDir = tempDataDir('qr-sandbox-perms-');
    let server = await startTestServer({ dataDir });
    await saveProfile(server);
    await server.stop();
    fs.writeFileSync(path.join(dataDir, 'uploads', 'left-over.csv'), 'a,b\n');
    for (const name of Object.keys(modes(dataDir))) {
      const full = path.join(dataDir, name);
      fs.chmodSync(full, fs.statSync(full).isDirectory() ? 0o777 : 0o666);
    }
    fs.chmodSync(dataDir, 0o755);
    server = await startTestServer({ dataDir });
    try {
      assert.equal(mode(dataDir), '700');
      for (const [name, value] of Object.entries(modes(dataDir))) {
        const isDir = fs.statSync(path.join(dataDir, name)).isDirectory();
        assert.equal(value, isDir ? '700' : '600', name);
      }
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the mode of a folder that holds other files, makes its own files private and says so in the log', async () => {
    const dataDir = tempDataDir('qr-sandbox-perms-');
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'mine', { mode: 0o644 });
    const server = await startTestServer({ dataDir });
    try {
      assert.equal(mode(dataDir), '755', 'not ours to change');
      assert.equal(mode(path.join(dataDir, 'notes.txt')), '644', 'not ours either');
      assert.equal(mode(path.join(dataDir, DATABASE_FILE)), '600');
      assert.equal(mode(path.join(dataDir, 'credentials.json')), '600');
      assert.match(fs.readFileSync(logFile(dataDir), 'utf8'), /the data folder holds files of other programs/);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
