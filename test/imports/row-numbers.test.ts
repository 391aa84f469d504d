import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import Papa from 'papaparse';
import { sheetRow, workbook } from '../fixtures/hostile/generate.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { titledWorkbook } from '../support/titled-workbook.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * One row number everywhere: the row as the user's file shows it (the sheet row of a workbook, the
 * line a CSV row starts on, the JSON element from 1), the same in the preview, the dry run, the sync
 * answer, the task's results, the error report and a draft of the excluded rows.
 */

interface Excluded {
  index: number;
  row_number: number;
  error: string;
}

/** Results of a file import: its excluded rows, and the sheet their row numbers are of (where the workbook has several). */
interface FileResults {
  excluded_data: Excluded[];
  sheet?: string;
}

/** A CSV whose first row has a name on two lines: the bad row is the file's line 5, its fourth record. */
const MULTILINE_CSV = [
  'name,location,qr_code_external_reference_id',
  '"Depot',
  'north gate","1 High Street, Carlton VIC 3053",LINE-1',
  'Yard,"2 High Street, Fitzroy VIC 3065",LINE-2',
  'Lost,"4 High Street, Nowhere QLD 4999",LINE-3',
  'Gate,"5 High Street, Bondi NSW 2026",LINE-4',
  '',
].join('\r\n');

const jsonRows = (org: string) =>
  JSON.stringify([
    { name: 'Depot', location: '1 High Street, Carlton VIC 3053', organization_uuid: org },
    { name: 'Yard', location: '2 High Street, Fitzroy VIC 3065', organization_uuid: org },
    { name: 'Lost', location: '4 High Street, Nowhere QLD 4999', organization_uuid: org },
  ]);

describe('row numbers: the row as the file shows it, everywhere', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;

  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    assert.equal(res.status, status, text);
    return JSON.parse(text) as T;
  };
  const upload = (content: Buffer | string, name: string, fields: Record<string, string> = {}) =>
    fileUpload(content, name, { organization_uuid: org(), ...fields });

  /** Every place an excluded row is numbered, for one file. */
  async function numbersEverywhere(content: Buffer | string, name: string) {
    const preview = await ok<{
      rows: { row_number: number; problems: string[] }[];
      sheet: string | null;
      sheets: { name: string }[] | null;
    }>(await server.request('/api/imports/preview', upload(content, name, { kind: 'qrcodes' })));
    const dry = await ok<FileResults>(await server.request('/api/qrcodes/bulk?dry_run=true', upload(content, name)));
    const sync = await ok<FileResults>(await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(content, name)));
    const accepted = await ok<{ background_task_uuid: string }>(await server.request('/api/qrcodes/bulk', upload(content, name)), 202);
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    const results = task.results as unknown as FileResults;
    const job = await ok<{ sheet: string | null; sheet_count: number | null }>(
      await server.request(`/api/background-tasks/uuid/${task.uuid}/import`),
    );
    const report = await server.request(`/api/qrcodes/bulk/${task.uuid}/errors?format=csv`);
    assert.equal(report.status, 200);
    const reportRows = Papa.parse<Record<string, string>>((await report.text()).replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const draft = await ok<{ uuid: string }>(
      await server.request('/api/import-drafts', jsonBody({ background_task_uuid: task.uuid })),
      201,
    );
    const draftRows = await ok<{ rows: { row_number: number | null }[] }>(
      await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows`),
    );
    return {
      preview: preview.rows.filter((r) => r.problems.length > 0).map((r) => r.row_number),
      dry: dry.excluded_data.map((e) => e.row_number),
      sync: sync.excluded_data.map((e) => e.row_number),
      task: results.excluded_data.map((e) => e.row_number),
      indexes: results.excluded_data.map((e) => e.index),
      report: reportRows.map((r) => Number(r.row_number)),
      draft: draftRows.rows.map((r) => r.row_number),
      task_uuid: task.uuid,
      /** The sheet each place names beside the row number (null: none). */
      sheets: {
        preview: (preview.sheets?.length ?? 0) > 1 ? preview.sheet : null,
        dry: dry.sheet ?? null,
        sync: sync.sheet ?? null,
        task: results.sheet ?? null,
        job: (job.sheet_count ?? 0) > 1 ? job.sheet : null,
        report: reportRows.map((r) => r.sheet ?? null),
      },
    };
  }

  /** The sheet every place names beside the row number: `expected`, or none. */
  const sheetEverywhere = (numbers: Awaited<ReturnType<typeof numbersEverywhere>>, expected: string | null) =>
    assert.deepEqual(numbers.sheets, {
      preview: expected,
      dry: expected,
      sync: expected,
      task: expected,
      job: expected,
      report: [expected],
    });

  const same = (numbers: Awaited<ReturnType<typeof numbersEverywhere>>, expected: number) => {
    const { indexes, task_uuid: _task, sheets: _sheets, ...places } = numbers;
    for (const [place, found] of Object.entries(places))
      assert.deepEqual(found, [expected], `${place} numbers the row ${found.join(', ')}`);
    return indexes;
  };

  it('a workbook with its rows on the second sheet under a title row: sheet row 8, as Excel shows it', async () => {
    const numbers = await numbersEverywhere(await titledWorkbook(), 'sites.xlsx');
    assert.deepEqual(same(numbers, 8), [4], "the spec's index is kept: the fifth data row, blank row counted");
    sheetEverywhere(numbers, 'Sites');
    const job = await ok<{ sheet: string | null; columns: { header: string; column: string }[] }>(
      await server.request(`/api/background-tasks/uuid/${numbers.task_uuid}/import`),
    );
    assert.equal(job.sheet, 'Sites');
    assert.deepEqual(
      job.columns.filter((c) => ['Ext Ref', 'Town', 'Street'].includes(c.header)),
      [
        { header: 'Street', column: 'address_line_1' },
        { header: 'Town', column: 'suburb' },
        { header: 'Ext Ref', column: 'qr_code_external_reference_id' },
      ],
      "the task's import names the file's own columns",
    );
  });

  for (const format of ['xls', 'ods'] as const) {
    it(`the same workbook as LibreOffice Calc writes it in .${format} (read by SheetJS): sheet row 8`, async () => {
      const book = fs.readFileSync(new URL(`../fixtures/workbench/titled-sites.${format}`, import.meta.url));
      const numbers = await numbersEverywhere(book, `sites.${format}`);
      assert.deepEqual(same(numbers, 8), [4]);
      sheetEverywhere(numbers, 'Sites');
    });
  }

  it('a CSV with a quoted cell on two lines before the bad row: the line it starts on', async () => {
    const numbers = await numbersEverywhere(MULTILINE_CSV, 'sites.csv');
    assert.deepEqual(same(numbers, 5), [2]);
    sheetEverywhere(numbers, null);
  });

  it('a CSV with a quoted line break above its header: header_row counts records (as a spreadsheet shows them), row_number lines', async () => {
    // Record 1 is a title on lines 1-2, record 2 a note (line 3), record 3 the header (line 4); the bad row is line 6.
    const csv = [
      '"Acme sites',
      'register",,',
      'Printed 28/11/2026,,',
      'name,location,qr_code_external_reference_id',
      'Depot,"1 High Street, Carlton VIC 3053",HDR-1',
      'Lost,"4 High Street, Nowhere QLD 4999",HDR-2',
      '',
    ].join('\r\n');
    const found = await ok<{ header_row: number; header_row_source: string; headers: string[]; rows: { row_number: number }[] }>(
      await server.request('/api/imports/preview', upload(csv, 'titled.csv', { kind: 'qrcodes' })),
    );
    assert.deepEqual([found.header_row, found.header_row_source], [3, 'found'], 'found as the third record, not line 4');
    const asked = await ok<typeof found>(
      await server.request('/api/imports/preview', upload(csv, 'titled.csv', { kind: 'qrcodes', header_row: '3' })),
    );
    assert.deepEqual(asked.headers, ['name', 'location', 'qr_code_external_reference_id']);
    assert.deepEqual(
      asked.rows.map((r) => r.row_number),
      [5, 6],
      'the lines the rows start on',
    );
    const sync = await ok<{ inserted: number; excluded_data: Excluded[] }>(
      await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(csv, 'titled.csv', { header_row: '3' })),
    );
    assert.equal(sync.inserted, 1);
    assert.deepEqual(
      sync.excluded_data.map((e) => [e.index, e.row_number]),
      [[1, 6]],
    );
    // Line 4 is record 4, a data row: as a header it names no location.
    const lines = await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(csv, 'titled.csv', { header_row: '4' }));
    assert.equal(lines.status, 400);
    assert.match(await lines.text(), /missing the required column location.*Depot/);
  });

  it("a JSON array: the element's position from 1", async () => {
    const numbers = await numbersEverywhere(jsonRows(org()), 'sites.json');
    assert.deepEqual(same(numbers, 3), [2]);
    sheetEverywhere(numbers, null);
  });

  it("a workbook whose rows are out of order keeps each row's own number (its r)", async () => {
    const book = workbook(
      sheetRow(1, ['name', 'location']) +
        sheetRow(3, ['Depot', '1 High Street, Carlton VIC 3053']) +
        sheetRow(2, ['Lost', '4 High Street, Nowhere QLD 4999']) +
        sheetRow(4, ['Gate', '5 High Street, Bondi NSW 2026']),
    );
    const numbers = await numbersEverywhere(book, 'unordered.xlsx');
    same(numbers, 2);
    sheetEverywhere(numbers, null);
  });
});
