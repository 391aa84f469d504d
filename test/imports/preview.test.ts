import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { saveImportHandler } from '../support/import-handlers.ts';

interface Preview {
  format: string;
  headers: string[];
  columns: {
    matched: { header: string; column: string }[];
    missing_required: string[];
    unknown: string[];
    matches?: { header: string; column: string | null; source: string }[];
  };
  saved_mapping?: { slug: string } | null;
  rows: { index: number; row_number: number; values: Record<string, unknown>; problems: string[] }[];
  total_rows_read: number;
  more_rows: boolean;
}

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

describe('POST /api/imports/preview', () => {
  const server = suiteServer(startImportTestServer);

  const preview = (content: Buffer | string, name: string, fields: Record<string, string> = {}) =>
    server.request(
      '/api/imports/preview',
      fileUpload(content, name, { kind: 'qrcodes', organization_uuid: server.organizationUuid, ...fields }),
    );

  const ok = async (res: Response): Promise<Preview> => {
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Preview;
  };
  const failure = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string; details?: { path: string }[] } }).error;

  it('matches the columns and marks the rows that will certainly fail, with their file row numbers', async () => {
    const csv = [
      'Address,Type,tag_name,Colour',
      '"1 Mitchell St, Darwin NT 0800",SITE,,red',
      '"2 Smith St, Darwin NT 0800",bad type!,,blue',
      ',,,',
      '"3 Cavenagh St, Darwin NT 0800",SITE,Gate,green',
    ].join('\n');
    const body = await ok(await preview(csv, 'sites.csv'));
    assert.equal(body.format, 'csv');
    assert.deepEqual(body.headers, ['Address', 'Type', 'tag_name', 'Colour']);
    assert.deepEqual(body.columns.matched, [
      { header: 'Address', column: 'location' },
      { header: 'Type', column: 'type' },
      { header: 'tag_name', column: 'tag_name' },
    ]);
    assert.deepEqual(body.columns.missing_required, []);
    assert.deepEqual(body.columns.unknown, ['Colour']);
    assert.deepEqual(
      body.rows.map((r) => [r.index, r.row_number, r.problems]),
      [
        [0, 2, []],
        [1, 3, ['type: must be a word such as SITE (letters, digits, underscores)']],
        [3, 5, ['tag_number: tag_name and tag_number go together']],
      ],
    );
    assert.deepEqual(body.rows[0]?.values, { Address: '1 Mitchell St, Darwin NT 0800', Type: 'SITE', tag_name: '', Colour: 'red' });
    assert.equal(body.total_rows_read, 3);
    assert.equal(body.more_rows, false);
  });

  it('names a missing required column before anything is sent', async () => {
    const body = await ok(await preview('name,suburb\nDepot,Darwin\n', 'no-location.csv'));
    assert.deepEqual(body.columns.missing_required, ['location']);
    assert.deepEqual(
      body.columns.matched.map((m) => m.column),
      ['name', 'suburb'],
    );
  });

  it('reads only the first rows of a big file', async () => {
    const lines = ['location,name'];
    for (let i = 0; i < 200_000; i++) lines.push(`"${i} Mitchell St, Darwin NT 0800",Site ${i}`);
    const body = await ok(await preview(lines.join('\n'), 'big.csv'));
    assert.equal(body.rows.length, 20);
    assert.equal(body.rows[19]?.row_number, 21);
    assert.equal(body.total_rows_read, 21);
    assert.equal(body.more_rows, true);
  });

  it('previews JSON arrays, XLSX workbooks and rows of another organization', async () => {
    const json = await ok(await preview(fixture('qr-records.json'), 'records.json'));
    assert.equal(json.format, 'json');
    assert.ok(json.headers.includes('location'));
    assert.equal(json.rows[0]?.row_number, 1);
    const xlsx = await ok(await preview(fixture('qr-libreoffice.xlsx'), 'sites.xlsx'));
    assert.equal(xlsx.format, 'xlsx');
    assert.ok(xlsx.columns.matched.some((m) => m.column === 'location'));
    assert.ok(xlsx.rows.length > 0);
    const other = await ok(await preview(`location,organization_uuid\n"1 Mitchell St, Darwin NT 0800",someone-else\n`, 'other.csv'));
    assert.match(other.rows[0]?.problems[0] ?? '', /^organization_uuid: someone-else is not the organization of this import/);
  });

  it('ignores the row_number and error columns of an error report, so a fixed report imports as is', async () => {
    const report = '\uFEFFlocation,name,row_number,error\r\n"1 Mitchell St, Darwin NT 0800",Depot,3,Address could not be located.\r\n';
    const body = await ok(await preview(report, 'errors.csv'));
    assert.deepEqual(body.columns.unknown, ['row_number', 'error']);
    assert.deepEqual(body.rows[0]?.problems, []);
  });

  it('previews appointments, through a saved import handler too, marking a start that is not a date', async () => {
    const csv =
      'Tag,Tag No,When,Where,Service,Job Ref\r\nSite,T-1,2026-03-02 09:00,"1 Mitchell St, Darwin NT 0800",Cleaning,J-1\r\nSite,T-2,next tuesday,"2 Hay St, Perth WA 6000",Cleaning,J-2\r\n';
    await saveImportHandler(server, {
      name: 'Field team',
      slug: 'field-team',
      mapping: {
        Tag: 'tag_name',
        'Tag No': 'tag_number',
        When: 'start_date_time',
        Where: 'location',
        Service: 'service',
        'Job Ref': 'job_reference_id',
      },
    });
    const body = await ok(await preview(csv, 'visits.csv', { kind: 'appointments', org_identifier: 'field-team' }));
    assert.deepEqual(body.columns.missing_required, []);
    assert.deepEqual(body.rows[0]?.problems, []);
    assert.match(body.rows[1]?.problems.join(' ') ?? '', /When|start_date_time/);
    const plain = await ok(await preview(csv, 'visits.csv', { kind: 'appointments' }));
    assert.deepEqual(
      plain.columns.matches?.map((m) => [m.header, m.column, m.source]),
      [
        ['Tag', 'tag_name', 'saved'],
        ['Tag No', 'tag_number', 'saved'],
        ['When', 'start_date_time', 'saved'],
        ['Where', 'location', 'saved'],
        ['Service', 'service', 'saved'],
        ['Job Ref', 'job_reference_id', 'saved'],
      ],
      'without org_identifier the saved handler whose titles are all in the file is proposed',
    );
    assert.equal(plain.saved_mapping?.slug, 'field-team');
    assert.deepEqual(plain.rows[0]?.problems, []);
    assert.match(plain.rows[1]?.problems.join(' ') ?? '', /start_date_time/);
  });

  it('shows a spreadsheet date cell as the wall-clock time typed in the sheet, as the import reads it (no UTC "Z")', async () => {
    const body = await ok(await preview(fixture('appointments-libreoffice.xlsx'), 'jobs.xlsx', { kind: 'appointments' }));
    assert.deepEqual(
      body.rows.slice(0, 3).map((r) => r.values.start_date_time),
      ['2026-03-02 09:00:00', '2026-10-04 02:30:00', '2026-04-05 02:30:00'],
    );
    assert.equal(body.rows[3]?.values.start_date_time, '2026-07-15 14:05', 'a text cell stays as typed');
  });

  it('answers clear 400s: no kind, no file, unreadable file, unknown or misplaced handler', async () => {
    const unknownHandler = await preview('location\nx\n', 'a.csv', { kind: 'appointments', org_identifier: 'nobody' });
    assert.equal(unknownHandler.status, 400);
    assert.match((await failure(unknownHandler)).message, /Unknown org_identifier "nobody"/);
    const noKind = await server.request(
      '/api/imports/preview',
      fileUpload('location\nx\n', 'a.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(noKind.status, 400);
    assert.equal((await failure(noKind)).details?.[0]?.path, 'kind');
    const form = new FormData();
    form.set('kind', 'qrcodes');
    form.set('organization_uuid', server.organizationUuid);
    const noFile = await server.request('/api/imports/preview', { method: 'POST', body: form });
    assert.equal(noFile.status, 400);
    assert.match((await failure(noFile)).message, /No file was uploaded/);
    const pdf = await preview('%PDF-1.4 something', 'a.pdf');
    assert.equal(pdf.status, 400);
    assert.match((await failure(pdf)).message, /This is a PDF/);
    const handler = await preview('location\nx\n', 'a.csv', { org_identifier: 'acme' });
    assert.equal(handler.status, 400);
    assert.equal((await failure(handler)).details?.[0]?.path, 'org_identifier');
    assert.match(
      (await failure(await preview('location\nx\n', 'a.csv', { org_identifier: 'acme' }))).message,
      /do not apply to qr code addresses/,
    );
    const json = await server.request('/api/imports/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    assert.equal(json.status, 415);
  });

  it('lets a viewer key preview (it writes nothing) but not import', async () => {
    const created = (await (await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'checker' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    const as = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: bearer(created) } });
    const csv = 'location\n"1 Mitchell St, Darwin NT 0800"\n';
    const res = await as('/api/imports/preview', fileUpload(csv, 'a.csv', { kind: 'qrcodes', organization_uuid: server.organizationUuid }));
    assert.equal(res.status, 200, await res.clone().text());
    const imported = await as('/api/qrcodes/bulk', fileUpload(csv, 'a.csv', { organization_uuid: server.organizationUuid }));
    assert.equal(imported.status, 403);
  });

  it('refuses another organization with 403 and leaves no upload behind', async () => {
    const res = await preview('location\nx\n', 'a.csv', { organization_uuid: 'not-my-org' });
    assert.equal(res.status, 403);
    assert.deepEqual(fs.readdirSync(`${server.dataDir}/uploads`), []);
  });
});
