import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { odsBook, odsRow } from '../fixtures/hostile/generate.ts';
import { addressCsv, fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * Excel 97-2003 (.xls) and OpenDocument (.ods) workbooks, as LibreOffice Calc writes them
 * (test/fixtures/workbench/make.ts, make-libreoffice-workbooks.sh), read by SheetJS: through the
 * API they give what the same workbook as .xlsx gives (sheet, header row, rows and their numbers,
 * dates, what is stored), for both kinds; damaged, protected and hostile ones get a clear 400.
 */

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const FORMATS = ['xlsx', 'xls', 'ods'] as const;

interface Preview {
  format: string;
  sheets: { name: string; rows: number }[] | null;
  sheet: string | null;
  header_row: number | null;
  headers: string[];
  rows: { row_number: number; values: Record<string, unknown>; problems: string[] }[];
}

describe('.xls and .ods imports', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const upload = (content: Buffer | string, name: string, fields: Record<string, string> = {}) =>
    fileUpload(content, name, { organization_uuid: org(), ...fields });
  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    assert.equal(res.status, status, text);
    return JSON.parse(text) as T;
  };
  const refused = async (res: Response, message: RegExp) => {
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assert.match((JSON.parse(text) as { error: { message: string } }).error.message, message);
  };
  const stored = (prefix: string) =>
    server.ctx.db.sqlite
      .prepare(
        'select name, suburb, postcode from qrcodes where organization_uuid = ? and name like ? and deleted_on is null order by name',
      )
      .all(org(), `${prefix}%`) as { name: string; suburb: string; postcode: string }[];

  it('previews the second sheet under its title rows as the .xlsx does, whatever the file is named', async () => {
    const previews: Record<string, Preview> = {};
    for (const format of FORMATS) {
      // Recognised by content: an .ods named .xlsx and an .xls named .csv are read as what they are.
      const name = { xlsx: 'sites.xlsx', xls: 'sites.csv', ods: 'sites.xlsx' }[format];
      previews[format] = await ok<Preview>(
        await server.request('/api/imports/preview', upload(fixture(`workbench/qr-second-sheet.${format}`), name, { kind: 'qrcodes' })),
      );
    }
    const { xlsx, xls, ods } = previews as Record<(typeof FORMATS)[number], Preview>;
    assert.deepEqual([xlsx.format, xls.format, ods.format], ['xlsx', 'xls', 'ods']);
    assert.deepEqual(xlsx.sheets, [
      { name: 'Read me', rows: 2 },
      { name: 'Sites', rows: 7 },
    ]);
    assert.equal(xlsx.sheet, 'Sites');
    assert.equal(xlsx.header_row, 3);
    for (const other of [xls, ods]) {
      assert.deepEqual(other.sheets, xlsx.sheets);
      assert.equal(other.sheet, xlsx.sheet);
      assert.equal(other.header_row, xlsx.header_row);
      assert.deepEqual(other.headers, xlsx.headers);
      assert.deepEqual(other.rows, xlsx.rows, 'the same rows, row numbers, values and problems');
    }
    assert.deepEqual(
      xls.rows.map((r) => [r.row_number, r.values.Postcode]),
      [
        [4, 800],
        [5, 3053],
        [6, 2026],
        [7, 6008],
      ],
    );
  });

  it('takes the sheet and header row a request names, by position or name', async () => {
    for (const format of ['xls', 'ods'] as const) {
      const book = fixture(`workbench/qr-second-sheet.${format}`);
      const first = await ok<Preview>(
        await server.request('/api/imports/preview', upload(book, `b.${format}`, { kind: 'qrcodes', sheet: '1' })),
      );
      assert.equal(first.sheet, 'Read me');
      const named = await ok<Preview>(
        await server.request('/api/imports/preview', upload(book, `b.${format}`, { kind: 'qrcodes', sheet: 'Sites', header_row: '3' })),
      );
      assert.deepEqual([named.sheet, named.header_row, named.rows[0]?.row_number], ['Sites', 3, 4]);
      const missing = await server.request('/api/imports/preview', upload(book, `b.${format}`, { kind: 'qrcodes', sheet: 'Nope' }));
      await refused(missing, /no sheet named "Nope".*1\. "Read me", 2\. "Sites"/);
    }
  });

  it('imports QR codes from .xls and .ods in sync, dry run and background mode, storing what the .xlsx stores', async () => {
    const expected = [
      { name: 'Bondi kiosk', suburb: 'Bondi', postcode: '2026' },
      { name: 'Carlton office', suburb: 'Carlton', postcode: '3053' },
      { name: 'Darwin depot', suburb: 'Darwin', postcode: '0800' },
      { name: 'Subiaco store', suburb: 'Subiaco', postcode: '6008' },
    ];
    for (const format of ['xls', 'ods'] as const) {
      const book = fixture(`workbench/qr-second-sheet.${format}`);
      const dry = await ok<{ inserted: number; excluded: number; dry_run: boolean }>(
        await server.request('/api/qrcodes/bulk?dry_run=true', upload(book, `sites.${format}`)),
      );
      assert.deepEqual([dry.dry_run, dry.inserted, dry.excluded], [true, 4, 0]);
      assert.deepEqual(stored(''), [], 'the dry run wrote nothing');
      const sync = await ok<{ inserted: number; excluded: number }>(
        await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(book, `sites.${format}`)),
      );
      assert.deepEqual([sync.inserted, sync.excluded], [4, 0]);
      assert.deepEqual(stored(''), expected);
      server.ctx.db.sqlite.prepare('delete from qrcodes where organization_uuid = ?').run(org());
      const accepted = await ok<{ background_task_uuid: string }>(
        await server.request('/api/qrcodes/bulk', upload(book, `sites.${format}`)),
        202,
      );
      const task = await waitForTask(server, accepted.background_task_uuid);
      assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
      assert.equal(task.metadata?.import_type, format);
      const job = await ok<{ format: string; sheet: string }>(await server.request(`/api/background-tasks/uuid/${task.uuid}/import`));
      assert.deepEqual([job.format, job.sheet], [format, 'Sites']);
      assert.deepEqual(stored(''), expected);
      server.ctx.db.sqlite.prepare('delete from qrcodes where organization_uuid = ?').run(org());
    }
  });

  it('reads appointment dates from .xls and .ods as the .xlsx gives them, and excludes the same row', async () => {
    const answers: Record<string, unknown> = {};
    for (const format of FORMATS) {
      const answer = await ok<{
        appointment_schedules_upserted: { job_reference_id: string; start_date_time: string }[];
        excluded_appointments: { row_number: number; error: string }[];
      }>(
        await server.request(
          '/api/appointment_schedule/bulk?processing_mode=sync&dry_run=true',
          upload(fixture(`appointments-libreoffice.${format}`), `visits.${format}`),
        ),
      );
      answers[format] = {
        starts: answer.appointment_schedules_upserted.map((s) => [s.job_reference_id, s.start_date_time]),
        excluded: answer.excluded_appointments.map((e) => [e.row_number, e.error]),
      };
    }
    assert.deepEqual(answers.xlsx, {
      starts: [
        ['XL-1', '2026-03-02T09:00:00+11:00'],
        ['XL-2', '2026-10-04T03:30:00+11:00'],
        ['XL-3', '2026-04-05T02:30:00+11:00'],
      ],
      excluded: (answers.xlsx as { excluded: unknown[] }).excluded,
    });
    assert.equal((answers.xlsx as { excluded: unknown[] }).excluded.length, 1);
    assert.deepEqual(answers.xls, answers.xlsx);
    assert.deepEqual(answers.ods, answers.xlsx);
  });

  it('imports appointments from the second sheet of an .ods in the background, day-first dates settled by the file', async () => {
    const accepted = await ok<{ background_task_uuid: string }>(
      await server.request('/api/appointment_schedule/bulk', upload(fixture('workbench/appointments-second-sheet.ods'), 'visits.ods')),
      202,
    );
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    const results = task.results as {
      upserted: number;
      excluded: number;
      sheet?: string;
      date_orders?: { order: string; source: string }[];
    };
    assert.deepEqual([results.upserted, results.excluded, results.sheet], [3, 0, 'Visits']);
    assert.deepEqual(
      results.date_orders?.map((d) => [d.order, d.source]),
      [['day_first', 'file']],
    );
  });

  it('refuses a password-protected, damaged or other OpenDocument file with a 400 that says what to do', async () => {
    const preview = (content: Buffer, name: string) => server.request('/api/imports/preview', upload(content, name, { kind: 'qrcodes' }));
    await refused(
      await preview(fixture('password/sites-password.xls'), 'p.xls'),
      /Excel 97-2003 workbook \(\.xls\) is protected with a password/,
    );
    await refused(
      await preview(fixture('password/sites-password.ods'), 'p.ods'),
      /OpenDocument spreadsheet \(\.ods\) is protected with a password.*LibreOffice/,
    );
    const xls = fixture('workbench/qr-second-sheet.xls');
    await refused(
      await preview(xls.subarray(0, 3000), 'cut.xls'),
      /could not be read as an Excel 97-2003 workbook \(\.xls\): .*damaged or cut short/,
    );
    const ods = fixture('workbench/qr-second-sheet.ods');
    await refused(
      await preview(ods.subarray(0, 4000), 'cut.ods'),
      /could not be read as an OpenDocument spreadsheet \(\.ods\): its zip directory is missing/,
    );
    const odt = Buffer.from(ods);
    odt.write('application/vnd.oasis.opendocument.text\0\0\0\0\0\0\0\0', 38, 'latin1');
    await refused(await preview(odt, 'letter.ods'), /OpenDocument text document \(\.odt\), not a spreadsheet/);
    // The same refusal on the import routes, before any task.
    await refused(
      await server.request('/api/qrcodes/bulk', upload(fixture('password/sites-password.xls'), 'p.xls')),
      /protected with a password/,
    );
  });

  it('refuses an .ods cell holding bytes that are not UTF-8, a NUL or a lone surrogate, naming the cell (SheetJS gave U+FFFD for the bytes)', async () => {
    const header = odsRow(['name', 'location']);
    const withName = (name: Buffer | string) =>
      odsBook(
        Buffer.concat([
          Buffer.from(`${header}<table:table-row><table:table-cell office:value-type="string"><text:p>`),
          Buffer.from(name),
          Buffer.from(`</text:p></table:table-cell>${odsRow(['1 High Street, Carlton VIC 3053']).slice('<table:table-row>'.length)}`),
        ]),
      );
    const cases: [Buffer | string, RegExp][] = [
      [Buffer.from('Caf\u00e9', 'latin1'), /bytes that are not UTF-8 .*LibreOffice does not open it either/],
      [Buffer.from([0x43, 0x61, 0x66, 0xed, 0xa0, 0x80]), /bytes that are not UTF-8/],
      ['De\u0000pot', /a NUL character/],
      ['De&#0;pot', /a NUL character/],
      ['Caf&#xD800;', /a broken character \(an unpaired UTF-16 surrogate\)/],
    ];
    for (const [name, what] of cases) {
      const book = withName(name);
      for (const res of [
        await server.request('/api/imports/preview', upload(book, 'sites.ods', { kind: 'qrcodes' })),
        await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(book, 'sites.ods')),
      ]) {
        const text = await res.text();
        assert.equal(res.status, 400, `${String(name)}: ${text}`);
        const message = (JSON.parse(text) as { error: { message: string } }).error.message;
        assert.match(message, /^Cell A2 of the sheet "Sheet1" holds .*, which cell text cannot hold\./);
        assert.match(message, what);
      }
    }
    assert.deepEqual(stored('Caf'), [], 'nothing stored');
  });

  it('lists an .ods sheet named R&amp;D as R&D, and refuses a sheet name SheetJS gives with a NUL, a lone surrogate or bytes that are not UTF-8', async () => {
    const rows = `${odsRow(['name', 'location'])}${odsRow(['Depot', '1 High Street, Carlton VIC 3053'])}`;
    const preview = (book: Buffer, name: string, fields: Record<string, string> = {}) =>
      server.request('/api/imports/preview', upload(book, name, { kind: 'qrcodes', ...fields }));
    const amp = await ok<Preview>(await preview(odsBook(rows, 'R&amp;D'), 'rd.ods', { sheet: 'R&D' }));
    assert.deepEqual([amp.sheets, amp.sheet], [[{ name: 'R&D', rows: 2 }], 'R&D']);
    const sheetNames: [Buffer, string, RegExp][] = [
      [odsBook(rows, 'S&#0;'), 'nul.ods', /a NUL character/],
      [odsBook(rows, 'S&#xD800;'), 'surrogate.ods', /a broken character/],
      [odsBook(rows, Buffer.from('Caf\u00e9', 'latin1')), 'latin1.ods', /bytes that are not UTF-8/],
    ];
    for (const name of ['S\u0000', 'S\uD800']) {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['name', 'location']]), 'Read me');
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['name', 'location']]), name);
      const xls = XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
      sheetNames.push([xls, 'names.xls', name.includes('\u0000') ? /a NUL character/ : /a broken character/]);
    }
    for (const [book, file, what] of sheetNames) {
      const position = file === 'names.xls' ? 2 : 1;
      const message = new RegExp(
        `^Sheet ${position} of the workbook has a name that holds ${what.source}.*, which a sheet name cannot hold`,
      );
      await refused(await preview(book, file), message);
      await refused(await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(book, file)), message);
    }
  });

  it('refuses a 26-byte .xls that sends SheetJS into a loop filling its memory, ending only the process that read it', async () => {
    // A bare BIFF2 stream whose STRING record is empty: SheetJS reads its length past the record and never stops.
    const record = (type: number, data: Buffer) =>
      Buffer.concat([Buffer.from([type & 0xff, type >> 8, data.length & 0xff, data.length >> 8]), data]);
    const loop = Buffer.concat([
      record(0x0009, Buffer.from([2, 0, 0x10, 0])),
      record(0x0007, Buffer.alloc(0)),
      record(0x000a, Buffer.alloc(0)),
    ]);
    await refused(
      await server.request('/api/imports/preview', upload(loop, 'loop.xls', { kind: 'qrcodes' })),
      /could not be read as an Excel 97-2003 workbook \(\.xls\): (reading it took more than the 192 MB|it was not read within)/,
    );
    assert.equal((await server.request('/api/health')).status, 200);
    const next = await ok<Preview>(
      await server.request('/api/imports/preview', upload(fixture('workbench/qr-second-sheet.xls'), 'next.xls', { kind: 'qrcodes' })),
    );
    assert.equal(next.sheet, 'Sites', 'the next .xls is read');
  });

  it('refuses a 1 KB .ods whose repeats stand for a billion cells, or a cell of 500 million spaces, at once; the server imports the next file', async () => {
    const header = odsRow(['name', 'location']);
    const billion = odsBook(
      `${header}<table:table-row table:number-rows-repeated="1000000"><table:table-cell office:value-type="string" table:number-columns-repeated="1000"><text:p>x</text:p></table:table-cell></table:table-row>`,
    );
    assert.ok(billion.length < 2048, `${billion.length} bytes`);
    const spaces = odsBook(
      `${header}<table:table-row><table:table-cell office:value-type="string"><text:p>a<text:s text:c="500000000"/></text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>1 High Street, Carlton VIC 3053</text:p></table:table-cell></table:table-row>`,
    );
    const answers = await Promise.all([
      server.request('/api/imports/preview', upload(billion, 'bomb.ods', { kind: 'qrcodes' })),
      server.request('/api/qrcodes/bulk', upload(billion, 'bomb.ods')),
      server.request('/api/qrcodes/bulk?processing_mode=sync', upload(spaces, 'spaces.ods')),
    ]);
    await refused(answers[0] as Response, /more cells with a value .* than the limit of 200,000 cells \(serve --max-xls-ods-cells\)/);
    await refused(answers[1] as Response, /more cells with a value/);
    await refused(
      answers[2] as Response,
      /Cell A2 of the sheet "Sheet1" holds more spaces than the limit of 1,024 KB \(serve --max-cell-kb\)/,
    );
    const health = await server.request('/api/health');
    assert.equal(health.status, 200);
    const sync = await ok<{ inserted: number }>(
      await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(addressCsv(3, 'AFTER'), 'after.csv')),
    );
    assert.equal(sync.inserted, 3);
  });
});
