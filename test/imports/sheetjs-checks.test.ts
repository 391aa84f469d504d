/**
 * The checks an .xls or .ods passes before SheetJS reads it whole (server/imports/sources/sheetjs/):
 * what an .ods's content.xml stands for once its repeats are written out, read chunk by chunk as
 * SheetJS finds tags; an .xls's size, cells, password, container and damaged formula records.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { ImportInputError } from '../../server/imports/errors.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../../server/imports/limits.ts';
import { OdsContentScan } from '../../server/imports/sources/sheetjs/ods-content-scan.ts';
import { readDeadlineMs } from '../../server/imports/sources/sheetjs/sheetjs-workbook.ts';
import { checkOdsLimits } from '../../server/imports/sources/sheetjs/ods-limits.ts';
import { Utf8ContentScan } from '../../server/imports/sources/sheetjs/utf8-content-scan.ts';
import { checkXlsLimits } from '../../server/imports/sources/sheetjs/xls-limits.ts';
import { odsBook, odsRow, zip } from '../fixtures/hostile/generate.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sheetjs-checks-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempFile = (content: Buffer) => {
  const file = path.join(dir, `f${files++}`);
  fs.writeFileSync(file, content);
  return file;
};

/** The cells content.xml stands for, read in chunks of `size` characters (a throw for a refusal). */
function scan(xml: string, size = xml.length, limits: Partial<ImportLimits> = {}): number {
  const scanner = new OdsContentScan({ ...DEFAULT_IMPORT_LIMITS, ...limits });
  const bytes = Buffer.from(xml);
  for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size));
  return scanner.cells;
}

const cell = (text: string, attributes = '') =>
  `<table:table-cell office:value-type="string"${attributes}><text:p>${text}</text:p></table:table-cell>`;
const table = (rows: string) => `<office:spreadsheet><table:table table:name="Sites">${rows}</table:table></office:spreadsheet>`;

describe('an .ods content.xml as SheetJS would expand it', () => {
  const book = table(
    [
      `<table:table-row>${cell('name')}${cell('location')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
      '<!-- a comment <table:table-row table:number-rows-repeated="999999"> is nothing -->',
      `<table:table-row table:number-rows-repeated="3">${cell('Depot', ' table:number-columns-repeated="2"')}<table:covered-table-cell/>${cell('x')}</table:table-row>`,
      '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>',
      '<table:table-row/>',
    ].join(''),
  );

  it('counts each cell with a value once for every row and column it is repeated over, empty repeats for nothing, whatever the chunks', () => {
    // 2 header cells; 3 rows of (2 repeated + 1) cells; the comment and the empty repeats count nothing.
    for (const size of [book.length, 64, 7, 1]) assert.equal(scan(book, size), 2 + 3 * 3, `chunks of ${size}`);
  });

  it('refuses what SheetJS would write out beyond the cell limit, a comment splitting the tag included', () => {
    const bomb = table(
      `<table:table-row<!-- split --> table:number-rows-repeated="1000000">${cell('x', ' table:number-columns-repeated="1000"')}</table:table-row>`,
    );
    for (const size of [bomb.length, 5]) {
      assert.throws(() => scan(bomb, size), /more cells with a value .* than the limit of 200,000 cells \(serve --max-xls-ods-cells\)/);
    }
    // Inside CDATA SheetJS still sees the tag: so is it counted.
    const cdata = table(
      `<![CDATA[<table:table-row table:number-rows-repeated="1000000">]]>${cell('x', ' table:number-columns-repeated="1000"')}</table:table-row>`,
    );
    assert.throws(() => scan(cdata), /more cells with a value/);
    assert.equal(scan(cdata, cdata.length, { maxXlsOdsCells: 2_000_000_000 }), 1e9);
  });

  it('refuses a cell with a value past the column limit or the last row, and spaces past the cell limit', () => {
    assert.throws(
      () => scan(table(`<table:table-row><table:table-cell table:number-columns-repeated="1000"/>${cell('far')}</table:table-row>`)),
      /Row 1 of the sheet "Sites" has a cell beyond column 1,000, the limit \(serve --max-columns\)/,
    );
    assert.throws(
      () =>
        scan(
          table(
            `<table:table-row table:number-rows-repeated="1048576"><table:table-cell/></table:table-row><table:table-row>${cell('x')}</table:table-row>`,
          ),
        ),
      /beyond row 1,048,576, the last row a spreadsheet has \(row 1,048,577\)/,
    );
    assert.throws(
      () => scan(table(`<table:table-row table:number-rows-repeated="2000000">${cell('x')}</table:table-row>`)),
      /a row repeated 2,000,000 times from row 1/,
    );
    assert.throws(
      () => scan(table(`<table:table-row>${cell('a<text:s text:c="600000"/><text:s text:c="600000"/>')}</table:table-row>`)),
      (error: Error) =>
        error instanceof ImportInputError &&
        /Cell A1 of the sheet "Sites" holds more spaces than the limit of 1,024 KB/.test(error.message),
    );
  });

  it('refuses a tag that never ends', () => {
    const scanner = new OdsContentScan(DEFAULT_IMPORT_LIMITS);
    scanner.push(Buffer.from(`<table:table-row a="${'x'.repeat(4 * 1024 * 1024)}`));
    assert.throws(() => scanner.push(Buffer.from('y'.repeat(5 * 1024 * 1024))), /a tag longer than 8 MB/);
  });
});

describe('an .ods content.xml that is not UTF-8', () => {
  /** The cells content.xml (raw bytes) stands for, checked to be UTF-8 as it streams in chunks of `size` bytes. */
  const checked = (bytes: Buffer, size: number) => {
    const scanner = new Utf8ContentScan(new OdsContentScan(DEFAULT_IMPORT_LIMITS));
    for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size));
    return scanner.end();
  };
  const raw = (...pieces: (string | Buffer | number[])[]) =>
    Buffer.concat(pieces.map((piece) => (Array.isArray(piece) ? Buffer.from(piece) : Buffer.from(piece))));
  const sheets = (...tables: (string | Buffer)[][]) =>
    raw(
      '<office:spreadsheet>',
      ...tables.flatMap(([name, rows]) => ['<table:table table:name="', name ?? '', '">', rows ?? '', '</table:table>']),
      '</office:spreadsheet>',
    );
  const row = (...cells: (string | Buffer)[]) =>
    raw(
      '<table:table-row>',
      ...cells.flatMap((text) => ['<table:table-cell office:value-type="string"><text:p>', text, '</text:p></table:table-cell>']),
      '</table:table-row>',
    );
  const latin1 = [0xe9];
  const surrogate = [0xed, 0xa0, 0x80];

  it('reads characters of every length cut by any chunk, and a U+FFFD written as such', () => {
    const book = sheets(['Sites', raw(row('Café 東京 🚚 مستودع', 'a\uFFFDb', 'R&amp;D'), row('x'))]);
    for (const size of [book.length, 64, 7, 3, 2, 1]) assert.equal(checked(book, size), 4, `chunks of ${size}`);
  });

  it('refuses a cell whose bytes are not UTF-8, naming the cell, wherever the chunks end', () => {
    const cases: [Buffer, RegExp][] = [
      [sheets(['Sites', raw(row('name', 'location'), row('Depot', raw('Caf', latin1)))]), /^Cell B2 of the sheet "Sites" holds bytes/],
      [sheets(['Sites', raw(row('a'), row('b'), row('c', 'd', raw('x', surrogate, 'y')))]), /^Cell C3 of the sheet "Sites"/],
      // In the cell's attribute, a broken 3-byte character cut short by the next one, a character cut by the end of content.xml.
      [
        sheets(['R&amp;D', raw('<table:table-row><table:table-cell office:string-value="', latin1, '"/></table:table-row>')]),
        /^Cell A1 of the sheet "R&D"/,
      ],
      [sheets(['Sites', row('a', raw([0xe6, 0x9d], '東'))]), /^Cell B1 of the sheet "Sites"/],
      [
        sheets(
          ['First', row('a')],
          [
            'Second',
            raw(
              row('a'),
              '<table:table-row table:number-rows-repeated="3"><table:table-cell/></table:table-row>',
              row('b', raw('x', [0xf0, 0x9f, 0x9a])),
            ),
          ],
        ),
        /^Cell B5 of the sheet "Second"/,
      ],
    ];
    for (const [book, message] of cases) {
      for (const size of [book.length, 64, 5, 1]) {
        assert.throws(
          () => checked(book, size),
          (error: Error) =>
            error instanceof ImportInputError &&
            message.test(error.message) &&
            /holds bytes that are not UTF-8 .*which cell text cannot hold\. .*LibreOffice does not open it either.*CSV UTF-8/.test(
              error.message,
            ),
          `${message} in chunks of ${size}`,
        );
      }
    }
  });

  it('refuses a sheet name whose bytes are not UTF-8 by the sheet\u2019s position, and other such bytes by their offset', () => {
    const name = sheets(['First', row('a')], [raw('Caf', latin1), row('b')]);
    const outside = raw(sheets(['Sites', row('a')]), '<!-- ', latin1, ' -->');
    const cut = raw(sheets(['Sites', row('a')]), [0xe6, 0x9d]);
    for (const size of [name.length, 6, 1]) {
      assert.throws(
        () => checked(name, size),
        /Sheet 2 of the workbook has a name that holds bytes that are not UTF-8 .*which a sheet name cannot hold/,
      );
      assert.throws(
        () => checked(outside, size),
        new RegExp(`content\\.xml has bytes that are not UTF-8 at byte ${outside.length - 5}, outside any cell`),
      );
      assert.throws(() => checked(cut, size), new RegExp(`not UTF-8 at byte ${cut.length - 2}, outside any cell`));
    }
  });
});

describe('an .ods before SheetJS reads it', () => {
  const good = odsBook(`${odsRow(['name', 'location'])}${odsRow(['Depot', '1 High Street, Carlton VIC 3053'])}`);

  it('answers the cells it holds, and refuses it unpacked past --max-xls-ods-mb, as it unpacks', async () => {
    assert.equal(await checkOdsLimits(tempFile(good), DEFAULT_IMPORT_LIMITS), 4);
    await assert.rejects(
      checkOdsLimits(tempFile(good), { ...DEFAULT_IMPORT_LIMITS, maxXlsOdsBytes: 600 }),
      /The \.ods workbook unpacks to more than the limit of 0 MB \(serve --max-xls-ods-mb\) for an \.ods \(passed at its part/,
    );
  });

  it('refuses content.xml whose bytes are not UTF-8, which SheetJS would read as U+FFFD, naming the cell', async () => {
    const latin1 = odsBook(Buffer.concat([Buffer.from(odsRow(['name', 'location'])), Buffer.from(odsRow(['Caf\u00e9', 'x']), 'latin1')]));
    await assert.rejects(
      checkOdsLimits(tempFile(latin1), DEFAULT_IMPORT_LIMITS),
      /^ImportInputError: Cell A2 of the sheet "Sheet1" holds bytes that are not UTF-8/,
    );
  });

  it('refuses a password, a zip without content.xml and a damaged zip, as an .ods', async () => {
    const mimetype = { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), stored: true };
    const encrypted = zip([
      mimetype,
      { name: 'META-INF/manifest.xml', data: Buffer.from('<manifest:file-entry><manifest:encryption-data/></manifest:file-entry>') },
      { name: 'content.xml', data: Buffer.from('scrambled') },
    ]);
    await assert.rejects(
      checkOdsLimits(tempFile(encrypted), DEFAULT_IMPORT_LIMITS),
      /OpenDocument spreadsheet \(\.ods\) is protected with a password/,
    );
    await assert.rejects(
      checkOdsLimits(tempFile(zip([mimetype])), DEFAULT_IMPORT_LIMITS),
      /could not be read as an OpenDocument spreadsheet \(\.ods\): it has no content\.xml/,
    );
    await assert.rejects(
      checkOdsLimits(tempFile(good.subarray(0, good.length - 30)), DEFAULT_IMPORT_LIMITS),
      /could not be read as an OpenDocument spreadsheet \(\.ods\): its zip directory/,
    );
  });
});

/** A BIFF record. */
const record = (type: number, data: Buffer | number[]) => {
  const body = Buffer.from(data);
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(body.length, 2);
  return Buffer.concat([head, body]);
};
const BOF8 = record(0x0809, [0x00, 0x06, 0x10, 0x00, 0, 0, 0, 0]);
const EOF = record(0x000a, []);
/** A BIFF8 MULRK of `cells` RK numbers on row 0. */
const mulrk = (cells: number) => {
  const data = Buffer.alloc(6 + cells * 6);
  data.writeUInt16LE(cells - 1, 4 + cells * 6);
  return record(0x00bd, data);
};

describe('an .xls before SheetJS reads it', () => {
  it('counts the cells its records hold, one per cell record and each of a MULRK', async () => {
    const book = tempFile(Buffer.concat([BOF8, record(0x0203, Buffer.alloc(14)), mulrk(5), record(0x00fd, Buffer.alloc(10)), EOF]));
    const { cells, bytes } = await checkXlsLimits(book, DEFAULT_IMPORT_LIMITS);
    assert.equal(cells, 7);
    assert.equal(bytes[0], 0x09, 'the bare workbook stream, as SheetJS reads it');
    await assert.rejects(
      checkXlsLimits(book, { ...DEFAULT_IMPORT_LIMITS, maxXlsOdsCells: 6 }),
      /holds 7 cells with a value, more than the limit of 6 cells \(serve --max-xls-ods-cells\)/,
    );
    await assert.rejects(
      checkXlsLimits(book, { ...DEFAULT_IMPORT_LIMITS, maxXlsOdsBytes: 16 }),
      /The \.xls file is larger than the limit of 0 MB \(serve --max-xls-ods-mb\)/,
    );
  });

  it('blanks each formula\u2019s token list, and refuses a formula record too short to hold its length', async () => {
    const formula = Buffer.alloc(26, 0x77);
    const book = tempFile(Buffer.concat([BOF8, record(0x0006, formula), EOF]));
    const { bytes } = await checkXlsLimits(book, DEFAULT_IMPORT_LIMITS);
    const data = 4 + BOF8.length;
    assert.equal(bytes.readUInt16LE(data + 20), 0, 'the cce of a BIFF8 FORMULA');
    assert.equal(bytes[data + 22], 0x77, 'the rest as it was');
    await assert.rejects(
      checkXlsLimits(tempFile(Buffer.concat([BOF8, record(0x0221, [1, 2, 3, 4]), EOF])), DEFAULT_IMPORT_LIMITS),
      /could not be read as an Excel 97-2003 workbook \(\.xls\): its record 0x0221 at byte 12 is cut short/,
    );
    await assert.rejects(
      checkXlsLimits(tempFile(Buffer.concat([BOF8, record(0x002f, [1, 0]), EOF])), DEFAULT_IMPORT_LIMITS),
      /protected with a password/,
    );
  });

  it('reads the workbook stream of an OLE container, and names another program\u2019s file', async () => {
    const container = (stream: string, content: Buffer) => {
      const cfb = XLSX.CFB.utils.cfb_new();
      XLSX.CFB.utils.cfb_add(cfb, stream, content);
      return tempFile(XLSX.CFB.write(cfb, { type: 'buffer' }) as Buffer);
    };
    const { cells } = await checkXlsLimits(container('Workbook', Buffer.concat([BOF8, mulrk(3), EOF])), DEFAULT_IMPORT_LIMITS);
    assert.equal(cells, 3);
    await assert.rejects(
      checkXlsLimits(container('WordDocument', Buffer.from('letter')), DEFAULT_IMPORT_LIMITS),
      /This is a Word document \(\.doc\), not a spreadsheet/,
    );
    await assert.rejects(
      checkXlsLimits(container('Other', Buffer.from('x')), DEFAULT_IMPORT_LIMITS),
      /its container holds no workbook stream/,
    );
    await assert.rejects(
      checkXlsLimits(container('Workbook', Buffer.from('not a BOF record')), DEFAULT_IMPORT_LIMITS),
      /its workbook stream does not start as one does/,
    );
  });

  it('gives SheetJS 6 s, and 10 s more per 100,000 cells, at most 60 s', () => {
    assert.deepEqual([0, 1, 100_000, 200_000, 10_000_000].map(readDeadlineMs), [6000, 16_000, 16_000, 26_000, 60_000]);
  });
});
