import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { templateCsv } from '../../server/imports/reports/report.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import type { TestServer } from '../support/server.ts';

const STARTS = ['=', '+', '-', '@', '\t', '\r'];
const RUNS_AS_FORMULA = /^[=+\-@\t\r]/;

describe('formula neutralisation in every CSV and XLSX the app writes', () => {
  let server: TestServer;
  let task: string;
  const values = STARTS.map((start) => `${start}HYPERLINK("http://evil.example","x")`);

  before(async () => {
    server = await startImportTestServer();
    const rows = values.map((value, i) => [value, value, `Nowhere ${i}`]);
    const csv = `${Papa.unparse([['name', 'label', 'location'], ...rows], { newline: '\r\n' })}\r\n`;
    const res = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      fileUpload(csv, 'formulas.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { excluded: number }).excluded, values.length);
    task = res.headers.get('x-background-task-uuid') ?? '';
  });
  after(() => server.stop());

  it('the CSV error report starts every such cell with an apostrophe', async () => {
    const res = await server.request(`/api/qrcodes/bulk/${task}/errors?format=csv`);
    assert.equal(res.status, 200);
    const rows = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' }).data.slice(1);
    assert.equal(rows.length, values.length);
    rows.forEach((row, i) => {
      for (const cell of row) assert.doesNotMatch(cell, RUNS_AS_FORMULA, `cell ${JSON.stringify(cell)} would run`);
      assert.equal(row[0], `'${values[i]}`);
      assert.equal(row[1], `'${values[i]}`);
    });
  });

  it('the XLSX error report writes them as text cells, never formulas', async () => {
    const res = await server.request(`/api/qrcodes/bulk/${task}/errors?format=xlsx`);
    assert.equal(res.status, 200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    assert.ok(sheet);
    let checked = 0;
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      row.eachCell((cell) => {
        assert.notEqual(cell.type, ExcelJS.ValueType.Formula, `formula in ${cell.address}`);
        // XML reads a leading CR back as LF; the cell is text either way.
        if (typeof cell.value === 'string' && /^[=+\-@\t\r\n]/.test(cell.value)) checked++;
      });
    });
    assert.equal(checked, values.length * 2);
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(bytes);
    for (const name of Object.keys(zip.files).filter((n) => n.startsWith('xl/worksheets/'))) {
      assert.doesNotMatch((await zip.file(name)?.async('string')) ?? '', /<f[ >]/, `${name} holds a formula element`);
    }
  });

  it('the template neutralises what it writes', async () => {
    const res = await server.request('/api/qrcodes/bulk/template');
    assert.equal(res.status, 200);
    for (const row of Papa.parse<string[]>(await res.text(), { skipEmptyLines: 'greedy' }).data) {
      for (const cell of row) assert.doesNotMatch(cell, RUNS_AS_FORMULA);
    }
    const written = Papa.parse<string[]>(templateCsv(['a', 'b'], { a: '=cmd()', b: '-1' })).data[1];
    assert.deepEqual(written, ["'=cmd()", "'-1"]);
  });
});
