import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runDesktopApp } from '../../main/desktop-app.ts';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { CREDENTIALS_FILE } from '../../server/orgs/bootstrap.ts';
import { startServer } from '../../server/server.ts';
import { FakeElectron } from '../desktop/support/fake-electron.ts';
import { startCli } from '../support/cli.ts';

const PAGE = 4096;
const WHAT_TO_DO = 'Move it away and restore a backup, or start with an empty data folder; nothing was changed.';

const digest = (file: string) =>
  fs.statSync(file).isFile() ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'not a file';

/** `serve` on the folder: it must refuse by itself, with status 2 (docs/cli.md: a mistake or failure) and one line. */
async function refusedStart(dataDir: string): Promise<string> {
  const result = await startCli(['serve', '--port', '0', '--data-dir', dataDir], { timeoutMs: 20_000 }).done;
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.doesNotMatch(result.stdout, /running at/);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, no stack:\n${result.stderr}`);
  return lines[0] ?? '';
}

describe('a damaged, empty or wrong database file is refused at start, and nothing is changed', () => {
  let tmp: string;
  let good: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-damaged-'));
    good = path.join(tmp, 'good');
    const server = await startServer({ dataDir: good, port: 0, logLevel: 'warn' });
    const organization = server.credentials?.organization_uuid;
    await server.close();
    // QR codes, so that the middle of the file is rows, read only when a request needs them.
    const db = new Database(path.join(good, DATABASE_FILE));
    const insert = db.prepare(
      `insert into qrcodes (uuid, organization_uuid, type, name, location, suburb, state, postcode, country, created_on, updated_on)
       values (?, ?, 'SITE', ?, ?, 'Sydney', 'NSW', '2000', 'Australia', ?, ?)`,
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run(randomUUID(), organization, `Site ${i}`, `${i} High Street, Sydney NSW 2000`, now, now);
    })();
    db.close();
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** A copy of the good folder (its database checkpointed and closed), changed by `damage`. */
  function folder(name: string, damage: (database: string) => void): { dataDir: string; database: string; credentials: string } {
    const dataDir = path.join(tmp, name);
    fs.cpSync(good, dataDir, { recursive: true });
    const database = path.join(dataDir, DATABASE_FILE);
    damage(database);
    return { dataDir, database, credentials: path.join(dataDir, CREDENTIALS_FILE) };
  }

  it('pages overwritten in the middle: "damaged", the file and credentials.json left as they were', async () => {
    const { dataDir, database, credentials } = folder('overwritten', (file) => {
      const pages = fs.statSync(file).size / PAGE;
      assert.ok(pages >= 20, `the database has ${pages} pages`);
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(4 * PAGE, 0xab), 0, 4 * PAGE, Math.floor(pages / 2) * PAGE);
      fs.closeSync(fd);
    });
    const before = [digest(database), digest(credentials)];
    const line = await refusedStart(dataDir);
    assert.ok(line.startsWith(`Error: The database file ${database} is damaged (`), line);
    assert.ok(line.endsWith(WHAT_TO_DO), line);
    assert.deepEqual([digest(database), digest(credentials)], before);
  });

  it('a 0-byte database where credentials.json exists is not a fresh install: refused, credentials.json kept', async () => {
    const { dataDir, database, credentials } = folder('emptied', (file) => fs.truncateSync(file, 0));
    const before = digest(credentials);
    const line = await refusedStart(dataDir);
    assert.match(line, new RegExp(`^Error: The database file ${database.replaceAll('.', '\\.')} is empty, `));
    assert.ok(line.endsWith(WHAT_TO_DO), line);
    assert.equal(digest(credentials), before);
    assert.equal(fs.statSync(database).size, 0);
  });

  it('a folder where the database file should be: one line, no stack', async () => {
    const { dataDir, database } = folder('directory', (file) => {
      fs.rmSync(file);
      fs.mkdirSync(file);
    });
    const line = await refusedStart(dataDir);
    assert.equal(line, `Error: The database file ${database} is a folder, not a file. ${WHAT_TO_DO}`);
  });

  it('a file that is not SQLite: named as such', async () => {
    const { dataDir, database } = folder('not-sqlite', (file) =>
      fs.writeFileSync(file, 'name,location\nSite 1,"1 High Street"\n'.repeat(500)),
    );
    const before = digest(database);
    const line = await refusedStart(dataDir);
    assert.equal(line, `Error: The database file ${database} is not a SQLite database (it begins "name,location"). ${WHAT_TO_DO}`);
    assert.equal(digest(database), before);
  });

  it('the desktop app shows the same message', async () => {
    const { dataDir, database } = folder('desktop', (file) => fs.truncateSync(file, 0));
    const electron = new FakeElectron({ userDataDir: path.join(tmp, 'user-data') });
    const desktop = runDesktopApp({
      electron,
      argv: ['/usr/lib/electron', '.', '--data-dir', dataDir],
      cwd: tmp,
      platform: 'linux',
      preloadPath: '/p.cjs',
      startServer: (options) => startServer({ ...options, logLevel: 'warn' }),
      log: () => {},
    });
    assert.equal(await desktop.started, 'failed');
    assert.equal(electron.errorBoxes.length, 1);
    assert.equal(electron.errorBoxes[0]?.title, 'QR Sandbox could not start');
    assert.match(electron.errorBoxes[0]?.content ?? '', new RegExp(`^The database file ${database.replaceAll('.', '\\.')} is empty, `));
    assert.ok(electron.errorBoxes[0]?.content.endsWith(WHAT_TO_DO));
  });
});
