import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importKindIds } from '../../server/imports/kinds.ts';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { runCli } from '../support/cli.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

const CSV = [
  'location,name,address_line_1,suburb,state,postcode,country',
  ',Darwin depot,1 Mitchell St,Darwin,NT,0800,Australia',
  ',Perth office,2 Hay St,Perth,WA,6000,Australia',
  ',Lost site,9 Nowhere Rd,Atlantis,ZZ,99999,Australia',
].join('\n');

describe('qr-sandbox import against another QR Sandbox standing in for the remote service', () => {
  let remote: TestServer;
  const local = tempDataDir();
  const file = path.join(local, 'addresses.csv');
  let key = '';
  let secret = '';

  /** The options that name the remote sandbox directly (its URL, key and organization) and the local data dir. */
  const target = (change: { url?: string; secret?: string } = {}) => [
    '--url',
    change.url ?? remote.url,
    '--key',
    `${key}:${change.secret ?? secret}`,
    '--organization',
    remote.organizationUuid,
    '--data-dir',
    local,
  ];

  before(async () => {
    remote = await startTestServer();
    [key = '', secret = ''] = remote.auth.slice('Bearer '.length).split(':');
    fs.writeFileSync(file, CSV);
    const added = await runCli(['profile', 'add', 'remote', ...target()]);
    assert.equal(added.code, 0, added.stderr);
  });
  after(async () => {
    await remote.stop();
    fs.rmSync(local, { recursive: true, force: true });
  });

  it('uploads in background mode, follows the task and saves the error report next to the file', async () => {
    const result = await runCli(['import', file, '--type', 'qrcodes', '--profile', 'remote', '--data-dir', local]);
    assert.equal(result.code, 0, result.stderr);
    const task = JSON.parse(result.stdout) as BackgroundTask;
    assert.equal(task.status, 'COMPLETED');
    assert.deepEqual([task.results?.inserted, task.results?.excluded], [2, 1]);
    assert.match(result.stderr, /COMPLETED: inserted 2, excluded 1/);
    assert.match(result.stderr, /Row 4: Address could not be located/, 'the row as the file numbers it');
    const report = path.join(local, 'addresses.errors.csv');
    assert.match(result.stderr, new RegExp(`excluded rows and their reasons are in ${report.replaceAll('.', '\\.')}`));
    const text = fs.readFileSync(report, 'utf8');
    assert.match(text, /Atlantis/);
    assert.match(text, /Address could not be located/);
    assert.doesNotMatch(text, /Darwin depot/);
    const remoteList = await remote.request(`/api/qrcodes?organization_uuid=${remote.organizationUuid}&search=depot`);
    assert.equal(((await remoteList.json()) as { total: number }).total, 1, 'the rows landed on the remote service');
  });

  it('names the sheet with each row where the workbook has several, for an .ods as for an .xlsx', async () => {
    const book = path.join(local, 'sites.ods');
    fs.copyFileSync(new URL('../fixtures/workbench/titled-sites.ods', import.meta.url), book);
    const sync = await runCli(['import', book, '--type', 'qrcodes', '--sync', ...target()]);
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(sync.stderr, /Row 8 of sheet Sites: Address could not be located/);
    const background = await runCli(['import', book, '--type', 'qrcodes', ...target()]);
    assert.equal(background.code, 0, background.stderr);
    assert.match(background.stderr, /Row 8 of sheet Sites: Address could not be located/);
    assert.ok(fs.existsSync(path.join(local, 'sites.errors.xlsx')), 'the report of a workbook is a workbook');
  });

  it('prints the whole result at once in sync mode, saves its error report, and sends a QR code JSON file as a JSON array', async () => {
    const report = path.join(local, 'addresses.errors.csv');
    fs.rmSync(report, { force: true });
    const sync = await runCli(['import', file, '--type', 'qrcodes', '--sync', '--profile', 'remote', '--data-dir', local]);
    assert.equal(sync.code, 0, sync.stderr);
    const answer = JSON.parse(sync.stdout) as { excluded: number; excluded_data: { index: number; row_number: number }[] };
    assert.equal(answer.excluded, 1);
    assert.deepEqual(
      answer.excluded_data.map((e) => [e.index, e.row_number]),
      [[2, 4]],
    );
    assert.match(sync.stderr, /Row 4: Address could not be located/);
    assert.match(sync.stderr, new RegExp(`excluded rows and their reasons are in ${report.replaceAll('.', '\\.')}`));
    assert.match(fs.readFileSync(report, 'utf8'), /Atlantis/, 'the sync import saved its error report like the background one');

    const json = path.join(local, 'sites.json');
    fs.writeFileSync(
      json,
      JSON.stringify([
        { organization_uuid: remote.organizationUuid, location: '1 Mitchell St, Darwin NT 0800, Australia', name: 'JSON site' },
      ]),
    );
    const fromJson = await runCli(['import', json, '--type', 'qrcodes', '--profile', 'remote', '--data-dir', local]);
    assert.equal(fromJson.code, 0, fromJson.stderr);
    assert.equal((JSON.parse(fromJson.stdout) as BackgroundTask).task_type, 'IMPORT');
  });

  it('checks a file with --dry-run on the sandbox it targets, writing nothing, and refuses a dry run against a profile', async () => {
    const before = (await (await remote.request(`/api/qrcodes?organization_uuid=${remote.organizationUuid}`)).json()) as { total: number };
    const checked = await runCli(['import', file, '--type', 'qrcodes', '--dry-run', ...target()]);
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal((JSON.parse(checked.stdout) as { dry_run: boolean }).dry_run, true);
    assert.match(checked.stderr, /Checked, nothing written\. Rows that would be excluded: 1\./);
    assert.match(checked.stderr, /offline gazetteer/);
    const after = (await (await remote.request(`/api/qrcodes?organization_uuid=${remote.organizationUuid}`)).json()) as { total: number };
    assert.equal(after.total, before.total);

    const refused = await runCli(['import', file, '--type', 'qrcodes', '--dry-run', '--profile', 'remote', '--data-dir', local]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /has no dry run and would import it for real/);
  });

  it("imports into the credential's own organization when --url/--key name no --organization, as --help says", async () => {
    const result = await runCli([
      'import',
      file,
      '--type',
      'qrcodes',
      '--sync',
      '--url',
      remote.url,
      '--key',
      `${key}:${secret}`,
      '--data-dir',
      local,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /Which organization/);
    assert.equal((JSON.parse(result.stdout) as { excluded: number }).excluded, 1);
  });

  it('asks which organization when the service does not say whose the key is (no GET /api/session)', async () => {
    const service = http.createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}'),
    );
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const result = await runCli(['import', file, '--type', 'qrcodes', '--url', url, '--key', 'k:s', '--data-dir', local]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Which organization\? .* does not say which organization the key belongs to .*pass --organization UUID/);
    } finally {
      service.close();
    }
  });

  it("sends a service only the reference's fields: file, organization_uuid, processing_mode and, for appointments, org_identifier", async () => {
    const received: Array<{ path: string; fields: string[] }> = [];
    const service = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('latin1');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const fields = [...body.matchAll(/Content-Disposition: form-data; name="([^"]+)"/gi)].map((m) => m[1] ?? '');
        received.push({ path: req.url ?? '', fields: fields.sort() });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"inserted":0,"excluded":0,"excluded_data":[]}');
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const to = ['--url', url, '--key', 'k:s', '--organization', 'org-1', '--data-dir', local, '--sync'];
      const qr = await runCli(['import', file, '--type', 'qrcodes', ...to]);
      assert.equal(qr.code, 0, qr.stderr);
      const visits = path.join(local, 'visits.csv');
      fs.writeFileSync(
        visits,
        'tag_name,tag_number,start_date_time,location,service\nGate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",Plumbing\n',
      );
      const appointments = await runCli(['import', visits, '--type', 'appointments', '--org-identifier', 'field-team', ...to]);
      assert.equal(appointments.code, 0, appointments.stderr);
      assert.deepEqual(received, [
        { path: '/api/qrcodes/bulk', fields: ['file', 'organization_uuid', 'processing_mode'] },
        { path: '/api/appointment_schedule/bulk', fields: ['file', 'org_identifier', 'organization_uuid', 'processing_mode'] },
      ]);
      const handlerForQr = await runCli(['import', file, '--type', 'qrcodes', '--org-identifier', 'field-team', ...to]);
      assert.equal(handlerForQr.code, 2);
      assert.match(handlerForQr.stderr, /--org-identifier names an import handler, which only --type appointments reads/);
      assert.equal(received.length, 2, 'nothing sent');
    } finally {
      service.close();
    }
  });

  it('says in plain words when the secret is wrong or the service is down', async () => {
    const wrong = await runCli(['import', file, '--type', 'qrcodes', ...target({ secret: 'wrong' })]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /rejected the API key or secret \(401\)/);

    const gone = await startTestServer();
    await gone.stop();
    const down = await runCli(['import', file, '--type', 'qrcodes', ...target({ url: gone.url })]);
    assert.equal(down.code, 2);
    assert.match(down.stderr, /Could not reach .* nothing is listening there/);

    const badType = await runCli(['import', file, '--type', 'things', '--data-dir', local]);
    // Every kind of the registry is offered.
    for (const id of importKindIds) assert.match(badType.stderr, new RegExp(`--type ${id}\\b`));
  });
});
