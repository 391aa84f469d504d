import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { fileUpload, startImportTestServer, waitForTask, type TaskBody } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

interface Excluded {
  index: number;
  row_number: number;
  error: string;
  row: Record<string, unknown>;
}

async function errorMessage(res: Response): Promise<string> {
  return ((await res.json()) as { error: { message: string } }).error.message;
}

describe('QR code bulk imports', () => {
  const server = suiteServer(() => startImportTestServer({ imports: { syncRowCap: 50 } }));

  const upload = (name: string, content: Buffer | string, query = '', fields: Record<string, string> = {}) =>
    server.request(`/api/qrcodes/bulk${query}`, fileUpload(content, name, { organization_uuid: server.organizationUuid, ...fields }));

  async function importInBackground(name: string, content: Buffer | string): Promise<TaskBody> {
    const res = await upload(name, content);
    assert.equal(res.status, 202, await res.clone().text());
    const accepted = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(accepted).sort(), ['background_task_uuid', 'message', 'status', 'task_id']);
    assert.equal(accepted.status, 'processing');
    return waitForTask(server, String(accepted.background_task_uuid));
  }

  const qrCodes = async (query: string) =>
    (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=100&${query}`)).json()) as {
      items: { name: string; postcode: string | null; location: string; label: string | null; deleted_on?: string; uuid: string }[];
      total: number;
    };

  it('imports a CSV with BOM, CRLF and a quoted newline, excluding rows with the shapes of the service contract', async () => {
    const task = await importInBackground('sites.csv', fixture('qr-bom-crlf.csv'));
    assert.equal(task.status, 'COMPLETED');
    assert.equal(task.task_type, 'QR_IMPORT');
    assert.equal(task.progress, 100);
    assert.deepEqual(task.metadata, {
      filename: 'sites.csv',
      import_type: 'csv',
      source: 'file_upload',
      api_key_name: 'My Organization admin',
      api_key_role: 'admin',
    });
    const results = task.results as { inserted: number; excluded: number; excluded_data: Excluded[] };
    assert.equal(results.inserted, 3);
    assert.equal(results.excluded, 2);
    assert.deepEqual(results.excluded_data, [
      {
        index: 2,
        row_number: 5,
        error: ADDRESS_NOT_LOCATED,
        row: {
          name: 'Lost site',
          qr_code_external_reference_id: 'CSV-3',
          location: '1 Unknown Lane, Nowhere QLD 4999',
          address_line_1: '1 Unknown Lane',
          suburb: 'Nowhere',
          state: 'QLD',
          postcode: '4999',
          country: 'Australia',
        },
      },
      {
        index: 3,
        row_number: 6,
        error: 'location: is required (or give suburb, state and postcode)',
        row: {
          name: 'No address',
          qr_code_external_reference_id: 'CSV-4',
          location: '',
          address_line_1: '',
          suburb: '',
          state: '',
          postcode: '',
          country: '',
        },
      },
    ]);
    const carlton = await qrCodes('external_reference_id=CSV-1');
    assert.equal(carlton.items[0]?.label, 'Gate code 1234\r\nring the bell');
  });

  it('stores the label, data and QR code name of every row, whichever of them a row leaves empty', async () => {
    const rows = [
      ['OPT-1', '', '', ''],
      ['OPT-2', 'Gate 2', '', ''],
      ['OPT-3', '', '{"bins":3}', 'Back door'],
      ['OPT-4', 'Gate 4', '{"bins":4}', 'Front door'],
      ['OPT-5', '', '', ''],
    ];
    const csv = ['qr_code_external_reference_id,location,label,data,qr_code_name']
      .concat(
        rows.map(([ref, label, data, name]) =>
          [ref, '"12 Smith Street, Carlton VIC 3053"', label, `"${data?.replaceAll('"', '""')}"`, name].join(','),
        ),
      )
      .join('\n');
    const task = await importInBackground('optional.csv', csv);
    assert.equal((task.results as { inserted: number }).inserted, 5, JSON.stringify(task.results));
    for (const [ref, label, data, name] of rows) {
      const res = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&external_reference_id=${ref}`);
      const item = ((await res.json()) as { items: { label: string | null; data: string | null; qr_code_name: string | null }[] }).items[0];
      assert.deepEqual(item && [item.label, item.data, item.qr_code_name], [label || null, data || null, name || null], String(ref));
    }
  });

  it('imports a ; CSV and puts back the leading zero of a numeric Australian postcode', async () => {
    const task = await importInBackground('semi.csv', fixture('qr-semicolon.csv'));
    const results = task.results as { inserted: number; excluded_data: Excluded[] };
    assert.equal(results.inserted, 2);
    assert.deepEqual(
      results.excluded_data.map((e) => e.index),
      [2],
    );
    assert.equal((await qrCodes('external_reference_id=SEMI-1')).items[0]?.postcode, '0800');
  });

  it('imports an XLSX written by LibreOffice', async () => {
    const task = await importInBackground('sites.xlsx', fixture('qr-libreoffice.xlsx'));
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal((task.metadata as { import_type: string }).import_type, 'xlsx');
    const results = task.results as { inserted: number; excluded: number; excluded_data: Excluded[] };
    assert.equal(results.inserted, 3);
    assert.deepEqual(
      results.excluded_data.map((e) => [e.index, e.error, e.row.postcode]),
      [[2, ADDRESS_NOT_LOCATED, '3999']],
    );
    assert.equal((await qrCodes('external_reference_id=LO-1')).items[0]?.postcode, '0800');
  });

  it('imports a JSON array (task IMPORT) with tags, in background and sync mode with the same results', async () => {
    const records = JSON.parse(
      fixture('qr-records.json').toString().replaceAll('"ORG"', JSON.stringify(server.organizationUuid)),
    ) as Record<string, unknown>[];
    const first = await server.request('/api/qrcodes/bulk', jsonBody(records));
    assert.equal(first.status, 202);
    const task = await waitForTask(server, ((await first.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.task_type, 'IMPORT');
    const results = task.results as Record<string, unknown>;
    assert.equal(results.qr_code_inserted, 2);
    assert.equal(results.qr_code_restored, 0);
    assert.equal(results.qr_code_tags_created, 1);
    assert.deepEqual(
      (results.excluded_qr_codes as Excluded[]).map((e) => [e.index, e.error]),
      [
        [2, ADDRESS_NOT_LOCATED],
        [3, 'location: is required (or give suburb, state and postcode)'],
      ],
    );

    const report = await server.request(`/api/qrcodes/bulk/${task.uuid}/errors`);
    assert.match(report.headers.get('content-type') ?? '', /text\/csv/, 'a JSON import reports as CSV');
    const reportRows = Papa.parse<string[]>((await report.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    const header = reportRows[0] ?? [];
    assert.equal(header[0], 'location');
    assert.deepEqual(
      reportRows.slice(1).map((r) => [r[0], r[header.indexOf('row_number')]]),
      [
        ['Somewhere that does not exist', '3'],
        ['', '4'],
      ],
    );

    const sync = await server.request('/api/qrcodes/bulk?processing_mode=sync', jsonBody(records));
    assert.equal(sync.status, 200);
    const syncResults = (await sync.json()) as Record<string, unknown>;
    assert.deepEqual(syncResults.excluded_qr_codes, results.excluded_qr_codes);
    assert.equal(syncResults.qr_code_inserted, 0, 'the second run matches the first: idempotent');
    assert.equal(syncResults.qr_code_updated, 2);
    assert.equal(syncResults.qr_code_tags_created, 0);
    assert.equal((await qrCodes('search=Fremantle')).total, 1);
  });

  it('gives the same results for a file in background and sync mode', async () => {
    const csv = 'location,name\r\n"1 Smith St, Carlton VIC 3053",Same A\r\nNowhere,Same B\r\n';
    const background = await importInBackground('same.csv', csv);
    await server.request(`/api/qrcodes/uuid/${(await qrCodes('search=Same%20A')).items[0]?.uuid}`, { method: 'DELETE' });
    const sync = await upload('same.csv', csv, '', { processing_mode: 'sync' });
    assert.equal(sync.status, 200);
    const syncResults = (await sync.json()) as Record<string, unknown>;
    const backgroundResults = background.results as Record<string, unknown>;
    assert.deepEqual(syncResults.excluded_data, backgroundResults.excluded_data);
    assert.equal(backgroundResults.inserted, 1);
    assert.equal(syncResults.inserted, 0);
    assert.equal(syncResults.restored, 1, 'the soft-deleted QR code was restored');
    assert.equal((await qrCodes('search=Same%20A')).total, 1);
  });

  it('restores a soft-deleted QR code matched by its external reference (JSON: qr_code_restored)', async () => {
    const created = await server.request(
      '/api/qrcodes',
      jsonBody({
        organization_uuid: server.organizationUuid,
        location: '1 Esplanade, Cairns QLD 4870',
        external_reference_id: 'RESTORE-1',
      }),
    );
    const uuid = ((await created.json()) as { uuid: string }).uuid;
    assert.equal((await server.request(`/api/qrcodes/uuid/${uuid}`, { method: 'DELETE' })).status, 204);
    const res = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      jsonBody([
        {
          organization_uuid: server.organizationUuid,
          location: '2 Esplanade, Cairns QLD 4870',
          qr_code_external_reference_id: 'RESTORE-1',
        },
      ]),
    );
    const results = (await res.json()) as Record<string, unknown>;
    assert.equal(results.qr_code_restored, 1);
    assert.equal(results.qr_code_inserted, 0);
    const restored = (await (await server.request(`/api/qrcodes/uuid/${uuid}`)).json()) as { location: string };
    assert.equal(restored.location, '2 Esplanade, Cairns QLD 4870');
  });

  it('round-trips the error report: download, fix, re-import only those rows', async () => {
    const csv = [
      'Location,Name,QR Code External Reference ID,Suburb,State,Postcode',
      '"1 Pier St, Glenelg SA 5045",Pier,RT-1,Glenelg,SA,5045',
      '"2 Pier St, Glenelgg SA 5045",Typo,RT-2,Glenelgg,SA,5045',
      '"=1+2",Formula,RT-3,Atlantis,SA,5999',
    ].join('\r\n');
    const task = await importInBackground('round.csv', csv);
    assert.equal((task.results as { excluded: number }).excluded, 2);

    const report = await server.request(`/api/qrcodes/bulk/${task.uuid}/errors`);
    assert.equal(report.status, 200);
    assert.match(report.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(report.headers.get('content-disposition') ?? '', /attachment; filename="qr-import-errors-.*\.csv"/);
    const text = await report.text();
    const rows = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    assert.deepEqual(rows[0], ['Location', 'Name', 'QR Code External Reference ID', 'Suburb', 'State', 'Postcode', 'row_number', 'error']);
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[6]]),
      [
        ['"2 Pier St, Glenelgg SA 5045"'.slice(1, -1), '3'],
        ["'=1+2", '4'],
      ],
    );

    const fixed = rows.map((r, i) =>
      i === 0 ? r : [r[0] === "'=1+2" ? '3 Pier St, Glenelg SA 5045' : r[0], r[1], r[2], 'Glenelg', r[4], '5045', r[6], r[7]],
    );
    const again = await importInBackground('round-fixed.csv', `\uFEFF${Papa.unparse(fixed as string[][])}`);
    const results = again.results as { inserted: number; excluded: number };
    assert.equal(results.excluded, 0);
    assert.equal(results.inserted, 2);
    assert.equal((await qrCodes('search=Pier')).total, 3);

    const xlsx = await server.request(`/api/qrcodes/bulk/${task.uuid}/errors?format=xlsx`);
    assert.equal(xlsx.status, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    assert.equal(sheet?.getRow(3).getCell(1).value, '=1+2', 'XLSX keeps the text as a text cell');
    assert.equal(sheet?.getRow(1).getCell(8).value, 'error');
    assert.equal(sheet?.getRow(3).getCell(7).value, 4, 'row_number is a number in XLSX');

    assert.equal((await server.request(`/api/qrcodes/bulk/${again.uuid}/errors`)).status, 404, 'no excluded rows');
    assert.equal((await server.request('/api/qrcodes/bulk/00000000-0000-0000-0000-000000000000/errors')).status, 404);
  });

  it('lists the first 1,000 excluded rows in the results, counts them all, and reports them all', async () => {
    const lines = Array.from({ length: 1005 }, (_, i) => `Nowhere ${i},Lost ${i}`);
    const task = await importInBackground('lost.csv', `location,name\r\n${lines.join('\r\n')}\r\n`);
    const results = task.results as { inserted: number; excluded: number; excluded_data: Excluded[] };
    assert.equal(results.excluded, 1005);
    assert.equal(results.excluded_data.length, 1000);
    assert.equal(results.excluded_data[999]?.index, 999);
    const report = await (await server.request(`/api/qrcodes/bulk/${task.uuid}/errors`)).text();
    const rows = Papa.parse<string[]>(report.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    assert.equal(rows.length, 1 + 1005);
    assert.deepEqual(rows[1005], ['Nowhere 1004', 'Lost 1004', '1006', ADDRESS_NOT_LOCATED]);
  });

  it('serves the template, which imports as is', async () => {
    const res = await server.request('/api/qrcodes/bulk/template');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /attachment/);
    const text = await res.text();
    const [header, example] = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    assert.equal(header?.slice(0, 6).join(','), 'location,organization_uuid,type,name,qr_code_name,qr_code_external_reference_id');
    assert.equal(example?.[1], server.organizationUuid);
    const task = await importInBackground('template.csv', text);
    assert.equal((task.results as { inserted: number }).inserted, 1);
  });

  it('imports CSV synchronously at /api/qrcodes/bulk-import', async () => {
    const res = await server.request(
      '/api/qrcodes/bulk-import',
      fileUpload('location\r\n"5 Mall, Darwin NT 0800"\r\n', 'x.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200);
    const results = (await res.json()) as Record<string, unknown>;
    assert.deepEqual([results.inserted, results.excluded, results.excluded_data], [1, 0, []]);
    const json = await server.request(
      '/api/qrcodes/bulk-import',
      fileUpload(fixture('qr-records.json'), 'x.json', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(json.status, 400);
  });

  it('answers bad input with a 4xx that says what to fix, before any task starts', async () => {
    const before = (
      (await (await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=1`)).json()) as {
        total: number;
      }
    ).total;

    const missing = await upload('m.csv', 'Name,Suburb\r\nA,Carlton\r\n');
    assert.equal(missing.status, 400);
    assert.match(await errorMessage(missing), /missing the required column location.*Name, Suburb/);

    assert.match(await errorMessage(await upload('e.csv', '')), /empty/);
    assert.match(await errorMessage(await upload('h.csv', 'location\r\n')), /no data rows/);
    assert.match(await errorMessage(await upload('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))), /\.xls\)/);
    assert.match(
      await errorMessage(await upload('bad.xlsx', fixture('qr-libreoffice.xlsx').subarray(0, 1500))),
      /could not be read as an Excel workbook/,
    );
    assert.match(await errorMessage(await server.request('/api/qrcodes/bulk', jsonBody({ location: 'x' }))), /array of objects/);
    assert.match(await errorMessage(await server.request('/api/qrcodes/bulk', jsonBody([]))), /empty/);
    assert.match(await errorMessage(await upload('a.csv', 'location\r\nx\r\n', '?processing_mode=later')), /processing_mode/);
    assert.match(await errorMessage(await server.request('/api/qrcodes/bulk', { method: 'POST', body: new FormData() })), /file/);
    assert.match(
      await errorMessage(await server.request('/api/qrcodes/bulk', fileUpload('location\r\nx\r\n', 'a.csv', {}))),
      /organization_uuid is required/,
    );
    const text = await server.request('/api/qrcodes/bulk', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    assert.equal(text.status, 415);
    const otherOrg = await server.request(
      '/api/qrcodes/bulk',
      fileUpload('location\r\nx\r\n', 'a.csv', { organization_uuid: '00000000-0000-0000-0000-000000000000' }),
    );
    assert.equal(otherOrg.status, 403);

    const many = `location\r\n${'"1 Smith St, Carlton VIC 3053"\r\n'.repeat(51)}`;
    const overCap = await upload('many.csv', many, '?processing_mode=sync');
    assert.equal(overCap.status, 400);
    assert.match(await errorMessage(overCap), /at most 50 rows.*processing_mode=background/);

    const after = (
      (await (await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=1`)).json()) as {
        total: number;
      }
    ).total;
    assert.equal(after, before, 'no task was left behind');
    assert.deepEqual(fs.readdirSync(`${server.dataDir}/uploads`), [], 'no upload was left behind');
  });

  it('fails a task whose file turns out corrupt, with a message, and keeps serving', async () => {
    // Larger than the part of a body checked before the task starts (64 KB), so the damage is found by the task.
    const elements = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ location: `${i} Smith St, Carlton VIC 3053`, organization_uuid: server.organizationUuid }),
    );
    const body = `[${elements.join(',')}, {"location": "oops" "x"}]`;
    const res = await server.request('/api/qrcodes/bulk', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(res.status, 202);
    const task = await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.status, 'FAILED');
    assert.match(task.error_message ?? '', /^The JSON is not valid: .* in element 2000\.$/);
    assert.equal(task.results, null);
    const small = await server.request('/api/qrcodes/bulk', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[{"location": "x"} {"a": 1}]',
    });
    assert.equal(small.status, 400, 'damage found in the checked part is a 400 before any task');
    assert.match(await errorMessage(small), /The JSON is not valid/);
    assert.equal((await server.request('/api/health')).status, 200);
  });

  it('excludes a CSV row with cells beyond the header (a comma left unquoted) instead of dropping them', async () => {
    const file = ['name,location', 'Unquoted,12 Smith St, Carlton VIC 3053', 'Trailing,"14 Smith St, Carlton VIC 3053",,', ''].join('\r\n');
    const res = await upload('ragged.csv', file, '?processing_mode=sync');
    assert.equal(res.status, 200);
    const results = (await res.json()) as { inserted: number; excluded_data: Excluded[] };
    assert.equal(results.inserted, 1, 'empty cells past the header are nothing to lose');
    assert.deepEqual(
      results.excluded_data.map((e) => [e.index, e.error]),
      [
        [
          0,
          'The row has 3 cells but the header has 2 columns: "Carlton VIC 3053" is under no column. Is there a comma in a value (an address?) without quotes around it? Put that value in double quotes, or name the extra column in the header.',
        ],
      ],
    );
    const stored = await qrCodes('search=Trailing');
    assert.deepEqual(
      stored.items.map((q) => [q.name, q.location]),
      [['Trailing', '14 Smith St, Carlton VIC 3053']],
    );
    assert.equal((await qrCodes('search=Unquoted')).total, 0);
  });

  it('refuses a CSV whose quote never closes instead of reading the rows after it into one cell', async () => {
    const open = ['name,location', 'Open,"1 Smith St, Carlton VIC 3053', 'After,2 Smith St, Sydney NSW 2000', ''].join('\r\n');
    const before = (await qrCodes('')).total;
    const sync = await upload('open-quote.csv', open, '?processing_mode=sync');
    assert.equal(sync.status, 400);
    const message = await errorMessage(sync);
    assert.match(message, /^Row 2 of the file \(the header is row 1\) opens a quoted cell that is never closed/);
    assert.equal((await qrCodes('')).total, before, 'nothing was stored');

    // In the background the batches committed before the open quote stay imported (as with any failure midway), and the task says so.
    const rows = Array.from({ length: 6000 }, (_, i) => `Quoted-before ${i},"${i} Smith St, Carlton VIC 3053"`);
    const task = await importInBackground('open-quote.csv', ['name,location', ...rows, open.split('\r\n')[1], 'After,x', ''].join('\r\n'));
    assert.equal(task.status, 'FAILED');
    assert.match(
      task.error_message ?? '',
      /^Row 6002 of the file \(the header is row 1\) opens a quoted cell that is never closed.* The first 5,000 rows were done: imported, or excluded with their reason \(in the error report\);/,
    );
    assert.equal((await qrCodes('search=Quoted-before')).total, 5000);
    const last = await qrCodes('search=Quoted-before%204999');
    assert.deepEqual(
      last.items.map((q) => [q.name, q.location]),
      [['Quoted-before 4999', '4999 Smith St, Carlton VIC 3053']],
    );
    assert.equal((await qrCodes('search=Open')).items.filter((q) => q.name === 'Open').length, 0, 'the broken row was not stored');
  });

  it('pushes task.progress and task.finished on /api/live', async () => {
    const controller = new AbortController();
    const live = await server.request('/api/live', { signal: controller.signal });
    assert.equal(live.status, 200);
    const reader = live.body?.getReader();
    assert.ok(reader);
    const rows = Array.from({ length: 5000 }, (_, i) => `"${i} Live St, Carlton VIC 3053",Live ${i}`).join('\r\n');
    const res = await upload('live.csv', `location,name\r\n${rows}\r\n`);
    const uuid = ((await res.json()) as { background_task_uuid: string }).background_task_uuid;
    const events: { type: string; data: { uuid: string; status: string; progress?: number } }[] = [];
    let buffer = '';
    const decoder = new TextDecoder();
    while (!events.some((e) => e.type === 'task.finished' && e.data.uuid === uuid)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (data) events.push(JSON.parse(data.slice(6)) as (typeof events)[number]);
      }
    }
    controller.abort();
    const mine = events.filter((e) => e.data.uuid === uuid);
    assert.ok(mine.some((e) => e.type === 'task.progress' && e.data.status === 'PROCESSING'));
    const finished = mine.find((e) => e.type === 'task.finished');
    assert.equal(finished?.data.status, 'COMPLETED');
    assert.equal(finished?.data.progress, 100);
  });

  it('rejects an upload over the size cap with 413', async () => {
    const small = await startImportTestServer({ imports: { maxUploadBytes: 1024 } });
    try {
      const big = `location\r\n${'"1 Smith St, Carlton VIC 3053"\r\n'.repeat(100)}`;
      const res = await small.request('/api/qrcodes/bulk', fileUpload(big, 'big.csv', { organization_uuid: small.organizationUuid }));
      assert.equal(res.status, 413);
      assert.match(await errorMessage(res), /limit of 0 MB|--max-upload-mb/);
      const json = await small.request('/api/qrcodes/bulk', jsonBody(Array.from({ length: 100 }, () => ({ location: 'x'.repeat(20) }))));
      assert.equal(json.status, 413);
      assert.deepEqual(fs.readdirSync(`${small.dataDir}/uploads`), []);
    } finally {
      await small.stop();
    }
  });
});
