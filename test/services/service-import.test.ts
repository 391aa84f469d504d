import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { runCli } from '../support/cli.ts';
import { jsonBody, tempDataDir, type TestServer } from '../support/server.ts';

/** services-libreoffice.xlsx is services-libreoffice-source.csv as LibreOffice Calc writes it (`soffice --headless --convert-to xlsx`): the code 101 a number cell. */
const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

interface Service {
  uuid: string;
  name: string;
  code: string | null;
  categories: { name: string }[];
}

describe('the services import (a sandbox addition): the catalog from CSV, XLSX and JSON', () => {
  let server: TestServer;
  before(async () => {
    server = await startImportTestServer();
  });
  after(() => server.close());

  const org = () => server.organizationUuid;

  const catalog = async (): Promise<Map<string, { code: string | null; categories: string[] }>> => {
    const res = await server.request(`/api/services?organization_uuid=${org()}&per_page=100`);
    assert.equal(res.status, 200);
    const { items } = (await res.json()) as { items: Service[] };
    return new Map(items.map((s) => [s.name, { code: s.code, categories: s.categories.map((c) => c.name) }]));
  };

  const upload = (content: Buffer | string, filename: string, fields: Record<string, string> = {}) =>
    server.request('/api/services/bulk', fileUpload(content, filename, { organization_uuid: org(), ...fields }));

  it('a dry run of the CSV answers what the import would give and writes nothing', async () => {
    const before = await catalog();
    const res = await upload(fixture('services-libreoffice-source.csv'), 'services.csv', { processing_mode: 'sync', dry_run: 'true' });
    assert.equal(res.status, 200);
    const answer = (await res.json()) as Record<string, unknown>;
    assert.equal(answer.dry_run, true);
    assert.deepEqual([answer.inserted, answer.updated, answer.unchanged, answer.excluded], [2, 1, 0, 2]);
    assert.deepEqual(await catalog(), before);
  });

  it('a sync CSV import adds and changes services by code, else by name, and excludes a row whose name another service has', async () => {
    const res = await upload(fixture('services-libreoffice-source.csv'), 'services.csv', { processing_mode: 'sync' });
    assert.equal(res.status, 200);
    const results = (await res.json()) as {
      inserted: number;
      updated: number;
      excluded: number;
      excluded_services: { row_number: number; error: string }[];
    };
    assert.deepEqual([results.inserted, results.updated, results.excluded], [2, 1, 2]);
    assert.deepEqual(
      results.excluded_services.map((e) => [e.row_number, e.error.split(':')[0]]),
      [
        [5, 'name'],
        [6, 'name'],
      ],
    );
    const stored = await catalog();
    assert.deepEqual(stored.get('Roof Inspection'), { code: 'ROF', categories: ['Maintenance', 'Safety'] });
    assert.deepEqual(stored.get('Window Cleaning'), { code: '101', categories: ['Facilities'] });
    assert.deepEqual(stored.get('Plumbing'), { code: 'PLB', categories: ['Maintenance', 'Water', 'Emergency'] });
    assert.equal(stored.get('Electrical Inspection')?.code, 'ELE', 'the excluded row changed nothing');
  });

  it('a background XLSX import (LibreOffice) of the same rows finds them up to date; the task lists its counts', async () => {
    const res = await upload(fixture('services-libreoffice.xlsx'), 'services.xlsx');
    assert.equal(res.status, 202);
    const { background_task_uuid } = (await res.json()) as { background_task_uuid: string };
    const task = await waitForTask(server, background_task_uuid);
    assert.equal(task.status, 'COMPLETED');
    assert.equal(task.task_type, 'SERVICE_IMPORT');
    assert.deepEqual([task.results?.inserted, task.results?.updated, task.results?.unchanged, task.results?.excluded], [0, 0, 3, 2]);
    assert.equal((await catalog()).get('Window Cleaning')?.code, '101', "a number cell is the code's text");

    const listed = await server.request(`/api/background-tasks?organization_uuid=${org()}&task_type=SERVICE_IMPORT`);
    assert.equal(listed.status, 200);
    const { items } = (await listed.json()) as { items: { uuid: string }[] };
    assert.ok(items.some((t) => t.uuid === background_task_uuid));

    // The error report: the file's own columns, row_number and error; fixed, it imports as it is.
    const report = await server.request(`/api/services/bulk/${background_task_uuid}/errors?format=csv`);
    assert.equal(report.status, 200);
    const lines = (await report.text()).trim().split(/\r?\n/);
    assert.equal(lines[0], 'Service Name,Code,Categories,row_number,error');
    assert.equal(lines.length, 3);
    const fixed = [lines[0], 'Cleaning Deluxe,ELX,Facilities,5,x', 'Gutter Clearing,NON,Missing name,6,x'].join('\n');
    const again = await upload(fixed, 'services.errors.csv', { processing_mode: 'sync' });
    assert.equal(again.status, 200);
    const fixedResults = (await again.json()) as Record<string, unknown>;
    assert.deepEqual([fixedResults.inserted, fixedResults.excluded], [2, 0]);
    const stored = await catalog();
    assert.deepEqual(stored.get('Cleaning Deluxe'), { code: 'ELX', categories: ['Facilities'] });
    assert.deepEqual(stored.get('Gutter Clearing'), { code: 'NON', categories: ['Missing name'] });
  });

  it('qr-sandbox import --type services sends a file, follows its task and saves the error report next to it', async () => {
    const local = tempDataDir();
    try {
      const file = path.join(local, 'catalog.csv');
      fs.writeFileSync(file, 'name,code\r\nBoiler Service,BLR\r\n,NOPE\r\n');
      const [key = '', secret = ''] = server.auth.slice('Bearer '.length).split(':');
      const to = ['--url', server.url, '--key', `${key}:${secret}`, '--organization', org(), '--data-dir', local];
      const result = await runCli(['import', file, '--type', 'services', ...to]);
      assert.equal(result.code, 0, result.stderr);
      const task = JSON.parse(result.stdout) as { task_type: string; status: string; results: Record<string, unknown> };
      assert.deepEqual([task.task_type, task.status, task.results.inserted, task.results.excluded], ['SERVICE_IMPORT', 'COMPLETED', 1, 1]);
      assert.match(result.stderr, /Row 3: name: is required/);
      assert.match(fs.readFileSync(path.join(local, 'catalog.errors.csv'), 'utf8'), /NOPE/);
      assert.equal((await catalog()).get('Boiler Service')?.code, 'BLR');
    } finally {
      fs.rmSync(local, { recursive: true, force: true });
    }
  });

  it('takes a JSON array; the template has the columns and an example row', async () => {
    const res = await server.request(
      '/api/services/bulk?processing_mode=sync',
      jsonBody([{ name: 'Roof Inspection', code: 'ROF', categories: 'Maintenance' }, { name: 'Lift Service' }]),
    );
    assert.equal(res.status, 200);
    const results = (await res.json()) as Record<string, unknown>;
    assert.deepEqual([results.inserted, results.updated], [1, 1]);
    assert.deepEqual((await catalog()).get('Roof Inspection')?.categories, ['Maintenance']);

    const template = await server.request('/api/services/bulk/template');
    assert.equal(template.status, 200);
    assert.equal((await template.text()).split(/\r?\n/)[0], 'name,code,categories');
  });
});
