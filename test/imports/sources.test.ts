import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { mapHeader, normaliseHeader, withColumnAliases } from '../../server/imports/engine/columns.ts';
import { ImportInputError } from '../../server/imports/errors.ts';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { sniffFormat } from '../../server/imports/intake/sniff.ts';
import { csvSource } from '../../server/imports/sources/csv.ts';
import { JsonArraySplitter } from '../../server/imports/sources/json-array.ts';
import { jsonSource } from '../../server/imports/sources/json.ts';
import type { RowSource } from '../../server/imports/sources/source.ts';
import { workbookSource as xlsxSource } from '../../server/imports/sources/workbook-source.ts';
import { qrCodeImportKind } from '../../server/qrcodes/import-kind.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url).pathname;

function tempFile(content: string | Buffer, name = 'input'): string {
  const dir = freshDir();
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(source: RowSource): Promise<{ header: string[]; rows: { index: number; row: unknown }[] }> {
  let header: string[] = [];
  const rows: { index: number; row: unknown }[] = [];
  await source.read({
    onHeader: (cells) => (header = cells),
    onRows: (chunk, first) => {
      chunk.forEach((row, i) => {
        if (row !== null) rows.push({ index: first + i, row });
      });
    },
  });
  return { header, rows };
}

describe('CSV source', () => {
  it('reads a UTF-8 BOM, CRLF file with a quoted newline and header names in any case', async () => {
    const { header, rows } = await readAll(csvSource(fixture('qr-bom-crlf.csv'), DEFAULT_IMPORT_LIMITS));
    assert.equal(header[0], 'LOCATION', 'the BOM is not part of the first header');
    assert.equal(rows.length, 5);
    const first = rows[0]?.row as string[];
    assert.equal(first[0], '12 Smith Street, Carlton VIC 3053');
    assert.equal(first[9], 'Gate code 1234\r\nring the bell');
    const mapping = mapHeader(qrCodeImportKind, header);
    assert.deepEqual(mapping.slice(0, 4), ['location', 'name', 'qr_code_name', 'qr_code_external_reference_id']);
  });

  it('guesses ; and tab delimiters', async () => {
    const semi = await readAll(csvSource(fixture('qr-semicolon.csv'), DEFAULT_IMPORT_LIMITS));
    assert.deepEqual(semi.header, ['location', 'name', 'qr_code_external_reference_id', 'suburb', 'state', 'postcode', 'country']);
    assert.equal((semi.rows[0]?.row as string[] | undefined)?.[0], '1 Mitchell Street; Darwin NT 0800');
    const tab = await readAll(csvSource(tempFile('location\tname\n"1 Smith St, Carlton VIC 3053"\tA\n'), DEFAULT_IMPORT_LIMITS));
    assert.deepEqual(tab.header, ['location', 'name']);
    assert.deepEqual(tab.rows[0]?.row, ['1 Smith St, Carlton VIC 3053', 'A']);
  });

  it('keeps the index of blank lines so row numbers match the file', async () => {
    const { rows } = await readAll(csvSource(tempFile('location\r\na\r\n\r\nb\r\n'), DEFAULT_IMPORT_LIMITS));
    const filled = rows.filter((r) => (r.row as string[]).some((c) => c !== ''));
    assert.deepEqual(
      filled.map((r) => r.index),
      [0, 2],
    );
  });

  it('reads Latin-1 text that is not valid UTF-8', async () => {
    const { rows } = await readAll(csvSource(tempFile(Buffer.from('location\nCaf\xe9 Street\n', 'latin1')), DEFAULT_IMPORT_LIMITS));
    assert.equal((rows[0]?.row as string[] | undefined)?.[0], 'Café Street');
  });
});

describe('XLSX source', () => {
  it('reads a LibreOffice workbook: shared strings, numeric postcodes and date cells', async () => {
    const { header, rows } = await readAll(xlsxSource(fixture('qr-libreoffice.xlsx'), DEFAULT_IMPORT_LIMITS));
    assert.deepEqual(header.slice(0, 3), ['Location', 'Name', 'QR Code External Reference ID']);
    const first = rows[0]?.row as unknown[];
    assert.equal(first[0], '1 Mitchell Street, Darwin NT 0800');
    assert.equal(first[6], 800, 'LibreOffice stored the postcode as the number 800');
    assert.ok(first[8] instanceof Date, 'the date cell is a Date');
    assert.equal((first[8] as Date).toISOString().slice(0, 10), '2024-03-15');
    assert.deepEqual(
      rows.map((r) => r.index),
      [0, 1, 2, 3],
    );
  });

  it('turns a damaged workbook into a message, not a crash', async () => {
    const damaged = fs.readFileSync(fixture('qr-libreoffice.xlsx')).subarray(0, 2000);
    await assert.rejects(readAll(xlsxSource(tempFile(damaged), DEFAULT_IMPORT_LIMITS)), (error: Error) => {
      assert.ok(error instanceof ImportInputError);
      assert.match(error.message, /could not be read as an Excel workbook/);
      return true;
    });
  });
  it('reads a later sheet of a LibreOffice workbook, whose own parts come after its sheets, the same every time', async () => {
    // exceljs's streaming reader, used before, crashed or lost the sheet names within a few hundred reads of this file.
    const book = new URL('../fixtures/workbench/qr-second-sheet.xlsx', import.meta.url).pathname;
    for (let read = 1; read <= 50; read++) {
      const { header, rows } = await readAll(xlsxSource(book, DEFAULT_IMPORT_LIMITS, { sheet: 'Sites', headerRow: 3 }));
      assert.deepEqual([header[0], rows.length], ['Site Name', 4], `read ${read}`);
    }
  });
});

describe('old Excel workbooks read by SheetJS', () => {
  /** A BIFF record: its type, length and data. */
  const record = (type: number, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(type, 0);
    head.writeUInt16LE(data.length, 2);
    return Buffer.concat([head, data]);
  };
  /** A BIFF2 LABEL record: text in a cell (0-based row and column). */
  const label = (row: number, column: number, text: string) => {
    const data = Buffer.alloc(8 + text.length);
    data.writeUInt16LE(row, 0);
    data.writeUInt16LE(column, 2);
    data.writeUInt8(text.length, 7);
    data.write(text, 8, 'latin1');
    return record(0x0004, data);
  };

  it('reads an Excel 2.x workbook, a bare BIFF stream without an OLE container, as .xls', async () => {
    const book = tempFile(
      Buffer.concat([
        record(0x0009, Buffer.from([2, 0, 0x10, 0])),
        label(0, 0, 'name'),
        label(0, 1, 'location'),
        label(2, 0, 'Depot'),
        label(2, 1, '1 High Street, Carlton VIC 3053'),
        record(0x000a, Buffer.alloc(0)),
      ]),
    );
    assert.equal(sniffFormat(book), 'xls');
    const rows: { numbers: readonly number[]; rows: unknown[] }[] = [];
    let header: string[] = [];
    await xlsxSource(book, DEFAULT_IMPORT_LIMITS, { sheet: null, headerRow: null }, 'xls').read({
      onHeader: (cells) => {
        header = cells;
      },
      onRows: (chunk, _first, numbers) => rows.push({ numbers, rows: chunk }),
    });
    assert.deepEqual(header, ['name', 'location']);
    assert.deepEqual(
      rows,
      [{ numbers: [2, 3], rows: [null, ['Depot', '1 High Street, Carlton VIC 3053']] }],
      'row 2 is blank, row 3 its own',
    );
  });
});

describe('JSON source', () => {
  it('splits an array into elements across chunk boundaries, strings with brackets and escapes included', () => {
    const text = JSON.stringify([{ a: 'x]},{"y' }, { b: [1, { c: '\\"' }] }, 'plain', 3]);
    const splitter = new JsonArraySplitter();
    const out: unknown[] = [];
    for (let i = 0; i < text.length; i += 3) out.push(...splitter.push(text.slice(i, i + 3)));
    splitter.end();
    assert.deepEqual(out, JSON.parse(text));
  });

  it('refuses anything but an array, and a cut-off array', async () => {
    assert.throws(() => new JsonArraySplitter().push('{"location": "x"}'), /must be an array of objects.*single object/);
    const cut = new JsonArraySplitter();
    cut.push('[{"a": 1}, {"b"');
    assert.throws(() => cut.end(), /ends before the array is closed/);
    await assert.rejects(readAll(jsonSource(tempFile('[{"a": 1}, {"b": }]'), DEFAULT_IMPORT_LIMITS)), /The JSON is not valid/);
  });
});

describe('format sniffing and header matching', () => {
  it('recognises formats by content and explains the ones it cannot read', () => {
    assert.equal(sniffFormat(fixture('qr-libreoffice.xlsx')), 'xlsx');
    assert.equal(sniffFormat(fixture('qr-records.json')), 'json');
    assert.equal(sniffFormat(fixture('qr-semicolon.csv')), 'csv');
    assert.equal(sniffFormat(fixture('workbench/qr-second-sheet.xls')), 'xls');
    assert.equal(sniffFormat(fixture('workbench/qr-second-sheet.ods')), 'ods');
    assert.equal(sniffFormat(tempFile(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))), 'xls', 'read (and refused) as .xls');
    assert.throws(() => sniffFormat(tempFile('')), /The file is empty/);
    assert.throws(() => sniffFormat(tempFile(Buffer.from([1, 2, 0, 0, 5]))), /not text/);
  });

  it('takes extra header names for one import (a saved column mapping)', () => {
    const columns = withColumnAliases(qrCodeImportKind, { columnAliases: { 'Street Address': 'location', Site: 'name' } });
    assert.deepEqual(mapHeader(columns, ['street_address', 'SITE', 'Other']), ['location', 'name', null]);
    assert.throws(
      () => mapHeader(qrCodeImportKind, ['Notes']),
      /missing the required column location \(or address_line_1 with suburb, or address_line_1 with postcode\)/,
    );
  });

  it('matches headers ignoring case, spaces and underscores, and names missing required columns', () => {
    assert.equal(normaliseHeader('\uFEFFQR Code_External Reference ID'), 'qrcodeexternalreferenceid');
    assert.throws(
      () => mapHeader(qrCodeImportKind, ['Name', 'Suburb']),
      (error: Error) =>
        error instanceof ImportInputError &&
        /missing the required column location/.test(error.message) &&
        /Name, Suburb/.test(error.message),
    );
  });
});
