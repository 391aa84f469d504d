import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/** Files as spreadsheets write them: what the import does with each quirk (docs/imports.md, "Files as they come"). */

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/workbench/${name}`, import.meta.url));

/** Three rows of data in a sheet whose used range runs to Excel's last row (a styled empty cell there). */
async function usedRangeToLastRow(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Export');
  sheet.addRow(['Site Name', 'Street Address', 'Suburb', 'State', 'Postcode']);
  sheet.addRow(['Far A', '1 High Street', 'Melbourne', 'VIC', 3000]);
  sheet.addRow(['Far B', '2 High Street', 'Carlton', 'VIC', 3053]);
  sheet.addRow(['Far C', '3 High Street', 'Darwin', 'NT', 800]);
  sheet.getCell('A1048576').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('files as they come: quirks of real spreadsheets', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const syncImport = async (content: Buffer | string, name: string, fields: Record<string, string> = {}) => {
    const res = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      fileUpload(content, name, { organization_uuid: org(), ...fields }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { inserted: number; excluded: number; excluded_data: { index: number; error: string }[] };
  };
  const stored = (prefix: string) =>
    server.ctx.db.sqlite
      .prepare(
        "select name, location, state, postcode, external_reference_id as ref from qrcodes where organization_uuid = ? and name like ? || '%' order by rowid",
      )
      .all(org(), prefix) as { name: string; location: string; state: string | null; postcode: string; ref: string | null }[];

  it("reads a sheet whose used range runs to row 1,048,576 as its rows of data, and a postcode stored as a number as text (800 is NT's 0800)", async () => {
    const book = await usedRangeToLastRow();
    const preview = await server.request(
      '/api/imports/preview',
      fileUpload(book, 'far.xlsx', { kind: 'qrcodes', organization_uuid: org() }),
    );
    assert.equal(preview.status, 200, await preview.clone().text());
    const body = (await preview.json()) as { sheets: { name: string; rows: number }[]; more_rows: boolean; rows: unknown[] };
    assert.deepEqual(body.sheets, [{ name: 'Export', rows: 4 }], 'the styled empty cell is no row of data');
    assert.equal(body.rows.length, 3);
    const result = await syncImport(book, 'far.xlsx');
    assert.deepEqual([result.inserted, result.excluded], [3, 0]);
    assert.deepEqual(
      stored('Far').map((r) => [r.name, r.postcode]),
      [
        ['Far A', '3000'],
        ['Far B', '3053'],
        ['Far C', '0800'],
      ],
    );
  });

  it('finds the header under title rows in semicolon- and tab-delimited CSV', async () => {
    for (const [delimiter, label] of [
      [';', 'Semi'],
      ['\t', 'Tab'],
    ] as const) {
      const csv = [
        `Register of sites${delimiter}${delimiter}`,
        '',
        ['Site Name', 'Address 1', 'Suburb', 'State', 'Post Code'].join(delimiter),
        [`${label} one`, '1 High Street', 'Fitzroy', 'VIC', '3065'].join(delimiter),
        [`${label} two`, '2 High Street', 'Darwin', 'NT', '800'].join(delimiter),
      ].join('\n');
      const result = await syncImport(csv, `${label}.csv`);
      assert.deepEqual([result.inserted, result.excluded], [2, 0], JSON.stringify(result));
      assert.deepEqual(
        stored(label).map((r) => [r.name, r.location]),
        [
          [`${label} one`, '1 High Street, Fitzroy VIC 3065'],
          [`${label} two`, '2 High Street, Darwin NT 0800'],
        ],
      );
    }
  });

  it('LibreOffice workbook: a merged cell fills only its first cell, hidden rows and columns are read, formulas give their cached values', async () => {
    const result = await syncImport(fixture('layout-quirks.xlsx'), 'quirks.xlsx');
    assert.deepEqual([result.inserted, result.excluded], [3, 1], JSON.stringify(result));
    const below = result.excluded_data[0] as { index: number; error: string; row: Record<string, unknown> };
    assert.equal(below.index, 1);
    assert.equal(below.row.state, null, 'the cell under a merged cell reads empty');
    assert.match(below.error, /could not be located/);
    assert.deepEqual(
      stored('').filter((r) => r.ref?.startsWith('Q-')),
      [
        { name: 'Merged state, top', location: '1 Lygon Street, Carlton VIC 3053', state: 'VIC', postcode: '3053', ref: 'Q-1' },
        { name: 'Hidden row', location: '3 Swan Street, Richmond VIC 3121', state: 'VIC', postcode: '3121', ref: 'Q-3' },
        { name: 'Formula name', location: '4 Moorabool Street, Geelong VIC 3220', state: 'VIC', postcode: '3220', ref: 'Q-4' },
      ],
      'the hidden row is imported, the hidden column (qr_code_external_reference_id) read, the formulas read as their cached values',
    );
  });
});
