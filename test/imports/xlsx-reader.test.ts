/**
 * The workbook reader (server/imports/sources/xlsx/) against exceljs's full reader, which reads
 * the whole file in memory and serves as the oracle: workbooks written by exceljs and saved by
 * LibreOffice must give the same cells. Files made by hand cover what neither writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { ImportInputError } from '../../server/imports/errors.ts';
import type { Cell } from '../../server/imports/sources/xlsx/sheet-scanner.ts';
import { Workbook } from '../../server/imports/sources/xlsx/workbook.ts';
import { longestRunEnd } from '../../server/imports/sources/zip-limits.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { zip } from '../fixtures/hostile/generate.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-xlsx-reader-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url).pathname;

/** A cell as the import saw it through exceljs: text, number, boolean, Date or empty. */
function oracleCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((part) => part.text ?? '').join('');
  if ('result' in v) return oracleCell(v.result);
  if ('formula' in v || 'sharedFormula' in v) return null;
  if (typeof v.error === 'string') return v.error;
  return String(value);
}

type Sheets = Record<string, { hidden: boolean; rows: [number, Cell[]][] }>;

const trimmed = (cells: Cell[]) => {
  const copy = [...cells];
  while (copy.length > 0 && copy[copy.length - 1] === null) copy.pop();
  return copy;
};

async function byOracle(file: string): Promise<Sheets> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheets: Sheets = {};
  for (const sheet of book.worksheets) {
    const rows: [number, Cell[]][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: Cell[] = [];
      // A merged range's value belongs to its top-left cell (docs/imports.md), as the import always read it.
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        while (cells.length < column - 1) cells.push(null);
        cells[column - 1] = cell.type === ExcelJS.ValueType.Merge ? null : oracleCell(cell.value);
      });
      if (trimmed(cells).length > 0) rows.push([row.number, trimmed(cells)]);
    });
    sheets[sheet.name] = { hidden: sheet.state === 'hidden' || sheet.state === 'veryHidden', rows };
  }
  return sheets;
}

async function byReader(file: string, maxColumns = 16_384): Promise<Sheets> {
  const book = Workbook.open(file);
  const sheets: Sheets = {};
  for (const sheet of book.sheets) {
    const rows: [number, Cell[]][] = [];
    for await (const batch of book.rows(sheet, maxColumns)) for (const row of batch) rows.push([row.number, trimmed(row.cells)]);
    sheets[sheet.name] = { hidden: sheet.hidden, rows };
  }
  return sheets;
}

async function exceljsWorkbook(name: string, build: (book: ExcelJS.Workbook) => void): Promise<string> {
  const book = new ExcelJS.Workbook();
  build(book);
  const file = path.join(dir, name);
  await book.xlsx.writeFile(file);
  return file;
}

/** A workbook made by hand: one sheet's XML, with optional shared strings, styles and workbook properties. */
/** A workbook made by hand; its sheet rows and shared strings may be raw bytes (not UTF-8). */
function handmade(
  name: string,
  parts: {
    sheet: string | Buffer;
    strings?: string | Buffer;
    styles?: string;
    workbookPr?: string;
    prefix?: string;
    /** The sheet's name as workbook.xml spells it (raw bytes as a Buffer). */
    sheetName?: string | Buffer;
  },
): string {
  const bytes = (...pieces: (string | Buffer)[]) => Buffer.concat(pieces.map((piece) => Buffer.from(piece)));
  const p = parts.prefix ?? '';
  const ns = p
    ? ` xmlns:${p.slice(0, -1)}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
    : ' xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rels = [
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>',
    parts.strings === undefined
      ? ''
      : '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>',
    parts.styles === undefined
      ? ''
      : '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/>',
  ].join('');
  const entries = [
    {
      name: 'xl/worksheets/sheet1.xml',
      data: bytes(`<?xml version="1.0"?><${p}worksheet${ns}><${p}sheetData>`, parts.sheet, `</${p}sheetData></${p}worksheet>`),
    },
    ...(parts.strings === undefined ? [] : [{ name: 'xl/sharedStrings.xml', data: bytes(`<sst${ns}>`, parts.strings, '</sst>') }]),
    ...(parts.styles === undefined ? [] : [{ name: 'xl/styles.xml', data: Buffer.from(`<styleSheet${ns}>${parts.styles}</styleSheet>`) }]),
    {
      name: 'xl/workbook.xml',
      data: bytes(
        `<${p}workbook${ns} xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${parts.workbookPr ?? ''}<${p}sheets><${p}sheet name="`,
        parts.sheetName ?? 'Data &amp; more',
        `" sheetId="1" rel:id="rId1"/></${p}sheets></${p}workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`),
    },
  ];
  const file = path.join(dir, name);
  fs.writeFileSync(file, zip(entries));
  return file;
}

describe('workbook reader', () => {
  it('reads every kind of cell exceljs writes as exceljs reads it: shared and rich text, numbers, dates, booleans, errors, formulas, sparse rows, a hidden sheet', async () => {
    const file = await exceljsWorkbook('kinds.xlsx', (book) => {
      const sheet = book.addWorksheet('Cells');
      sheet.getCell('A1').value = 'plain';
      sheet.getCell('B1').value = '  spaced & <escaped> "quoted" \'text\'  ';
      sheet.getCell('C1').value = 'Café 🚚 مستودع 東京';
      sheet.getCell('D1').value = { richText: [{ text: 'rich ', font: { bold: true } }, { text: 'text' }] };
      sheet.getCell('A2').value = 0;
      sheet.getCell('B2').value = -1.5;
      sheet.getCell('C2').value = 1e-7;
      sheet.getCell('D2').value = 123456789012345;
      sheet.getCell('E2').value = 0.1 + 0.2;
      sheet.getCell('A3').value = new Date(Date.UTC(2026, 2, 2, 9, 30));
      sheet.getCell('B3').value = new Date(Date.UTC(1999, 11, 31));
      sheet.getCell('C3').value = 46_000;
      sheet.getCell('C3').numFmt = 'dd/mm/yyyy hh:mm';
      sheet.getCell('D3').value = 3800;
      sheet.getCell('D3').numFmt = '"Postcode "0000';
      sheet.getCell('A4').value = true;
      sheet.getCell('B4').value = false;
      sheet.getCell('C4').value = { error: '#N/A' } as ExcelJS.CellErrorValue;
      sheet.getCell('D4').value = { formula: '1+1', result: 2 } as ExcelJS.CellFormulaValue;
      sheet.getCell('E4').value = { formula: '"a"&"b"', result: 'ab' } as ExcelJS.CellFormulaValue;
      sheet.getCell('F4').value = { formula: 'NOW()' } as ExcelJS.CellFormulaValue;
      sheet.getCell('A7').value = 'after two empty rows';
      sheet.getCell('Z7').value = 'far right';
      sheet.getCell('B8').value = 'x'.repeat(5000);
      const hidden = book.addWorksheet('Hidden', { state: 'hidden' });
      hidden.getCell('A1').value = 'not shown';
      hidden.getCell('C2').value = 42;
    });
    const read = await byReader(file);
    assert.deepEqual(read, await byOracle(file));
    assert.equal(read.Cells?.rows[2]?.[1][2] instanceof Date, true, 'a number in a date format is a Date');
    assert.equal(read.Cells?.rows[2]?.[1][3], 3800, 'a number in a format that is not a date stays a number');
    assert.equal(read.Hidden?.hidden, true);
  });

  it('reads dates in the 1904 date system (Excel for Mac) as exceljs does', async () => {
    const file = await exceljsWorkbook('mac-1904.xlsx', (book) => {
      book.properties.date1904 = true;
      const sheet = book.addWorksheet('Mac');
      sheet.getCell('A1').value = 'start';
      sheet.getCell('A2').value = 44_000;
      sheet.getCell('A2').numFmt = 'yyyy-mm-dd hh:mm';
    });
    const read = await byReader(file);
    assert.deepEqual(read, await byOracle(file));
    const start = read.Mac?.rows[1]?.[1][0];
    assert.ok(start instanceof Date);
    assert.equal(start.toISOString(), '2024-06-19T00:00:00.000Z');
  });

  it('reads workbooks LibreOffice saved (its own parts after the sheets) as exceljs does', async () => {
    for (const name of [
      'qr-libreoffice.xlsx',
      'appointments-libreoffice.xlsx',
      'workbench/qr-second-sheet.xlsx',
      'workbench/appointments-second-sheet.xlsx',
      'workbench/layout-quirks.xlsx',
    ]) {
      const read = await byReader(fixture(name));
      assert.deepEqual(read, await byOracle(fixture(name)), name);
      assert.ok(
        Object.values(read).some((sheet) => sheet.rows.length > 1),
        `${name} has rows`,
      );
    }
  });

  it('reads what other writers do: no r references, a namespace prefix, entities, line ends, escapes, inline rich text, ISO dates, typed formula results', async () => {
    const file = handmade('other-writers.xlsx', {
      prefix: 'x:',
      workbookPr: '<x:workbookPr date1904="true"/>',
      strings:
        '<si><t>first</t></si><si><r><t xml:space="preserve">two </t></r><r><rPr><b/></rPr><t>runs</t></r><rPh sb="0" eb="1"><t>フリガナ</t></rPh></si>' +
        '<si><t>line&#10;break &#x1F600; a_x000D_b</t></si><si/>',
      styles:
        '<numFmts count="1"><numFmt numFmtId="170" formatCode="[$-409]d&quot;/&quot;m&quot;/&quot;yy"/></numFmts>' +
        '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="170"/><xf numFmtId="49"/></cellXfs>',
      sheet:
        '<x:row><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c t="s"><x:v>2</x:v></x:c><x:c t="s"><x:v>3</x:v></x:c></x:row>' +
        '<x:row><x:c t="inlineStr"><x:is><x:r><x:t>in</x:t></x:r><x:r><x:t>line</x:t></x:r></x:is></x:c><x:c t="inlineStr"><x:is><x:t>a\r\nb &lt;c&gt;</x:t></x:is></x:c>' +
        '<x:c s="1"><x:v>1</x:v></x:c><x:c s="2"><x:v>0800</x:v></x:c><x:c t="d"><x:v>2026-03-02T09:30:00Z</x:v></x:c></x:row>' +
        '<x:row r="5"><x:c r="C5" t="b"><x:f>TRUE()</x:f><x:v>1</x:v></x:c><x:c r="D5" t="e"><x:f>1/0</x:f><x:v>#DIV/0!</x:v></x:c><x:c r="E5"><x:f>A9</x:f></x:c><x:c r="F5" t="str"><x:f>A1</x:f><x:v>x &amp; y</x:v></x:c></x:row>' +
        '<x:row r="6"/><x:row r="7"><x:c r="B7" s="2"/></x:row>',
    });
    const read = await byReader(file);
    assert.deepEqual(Object.keys(read), ['Data & more']);
    assert.deepEqual(read['Data & more']?.rows, [
      [1, ['first', 'two runs', 'line\nbreak 😀 a\rb', '']],
      [2, ['inline', 'a\nb <c>', new Date(Date.UTC(1904, 0, 2)), 800, new Date('2026-03-02T09:30:00Z')]],
      [5, [null, null, true, '#DIV/0!', null, 'x & y']],
    ]);
  });

  it('refuses text cells whose shared strings are missing, a sheet cut short, a damaged tag, and a cell beyond the column limit, each in plain words', async () => {
    const noStrings = handmade('no-strings.xlsx', { sheet: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' });
    await assert.rejects(
      byReader(noStrings),
      (error: Error) =>
        error instanceof ImportInputError && /row 1\) refer to its shared strings, which the file does not hold/.test(error.message),
    );
    const beyond = handmade('beyond.xlsx', { strings: '<si><t>only</t></si>', sheet: '<row r="1"><c r="A1" t="s"><v>1</v></c></row>' });
    await assert.rejects(byReader(beyond), /shared strings, which the file does not hold/);
    const cut = zip([
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: Buffer.from(
          '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row><row r="2"><c r="A2" t="inl',
        ),
      },
    ]);
    fs.writeFileSync(path.join(dir, 'cut.xlsx'), cut);
    await assert.rejects(byReader(path.join(dir, 'cut.xlsx')), /could not be read as an Excel workbook.*ends in the middle of a tag/);
    const damaged = handmade('damaged.xlsx', { sheet: '<row r="1"><c r="A1"><v>1</v></c></row><row><<<' });
    await assert.rejects(byReader(damaged), /could not be read as an Excel workbook.*damaged/);
    const far = handmade('far.xlsx', { sheet: '<row r="3"><c r="A3"><v>1</v></c><c r="XFD3"><v>2</v></c></row>' });
    await assert.rejects(byReader(far, 1000), /Row 3 of the worksheet has a cell beyond column 1,000, the limit \(serve --max-columns\)/);
  });

  it('reads a sheet of 300,000 distinct shared strings in a process with a 40 MB heap (the strings stay off the heap)', () => {
    const rows = 300_000;
    const strings: string[] = [];
    const sheet: string[] = [];
    for (let i = 0; i < rows; i++) {
      strings.push(`<si><t>${i} Distinct Street Name Long Enough To Count, Suburb VIC 3000</t></si>`);
      sheet.push(`<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i}</v></c></row>`);
    }
    const file = handmade('many-strings.xlsx', { strings: strings.join(''), sheet: sheet.join('') });
    const script = `
      import { Workbook } from ${JSON.stringify(new URL('../../server/imports/sources/xlsx/workbook.ts', import.meta.url).pathname)};
      const book = Workbook.open(process.argv[1]);
      let count = 0, last = null;
      for await (const batch of book.rows(book.sheets[0], 1000)) for (const row of batch) { count++; last = row.cells[0]; }
      console.log(JSON.stringify({ count, last }));`;
    const run = spawnSync(process.execPath, ['--max-old-space-size=40', '--input-type=module', '-e', script, file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    assert.deepEqual(JSON.parse(run.stdout), {
      count: rows,
      last: `${rows - 1} Distinct Street Name Long Enough To Count, Suburb VIC 3000`,
    });
  });

  it('finds a run of text between tags longer than the cell limit as a byte-by-byte count does, across chunk boundaries', () => {
    const random = seededRandom(33);
    for (let trial = 0; trial < 300; trial++) {
      const limit = 1 + Math.floor(random() * 40);
      const bytes = Buffer.from(Array.from({ length: 400 }, () => (random() < 0.04 ? (random() < 0.5 ? '<' : '>') : 'x')).join(''));
      let longest = 0;
      let run = 0;
      for (const byte of bytes) {
        run = byte === 0x3c || byte === 0x3e ? 0 : run + 1;
        longest = Math.max(longest, run);
      }
      let carried = 0;
      for (let at = 0; at < bytes.length && carried <= limit; at += 37)
        carried = longestRunEnd(bytes.subarray(at, at + 37), carried, limit);
      assert.equal(carried > limit, longest > limit, `trial ${trial}: longest run ${longest}, limit ${limit}`);
    }
  });

  it('reads the head of a sheet with the shared strings only as far as its cells need, wherever they point', async () => {
    const count = 50_000;
    const strings = Array.from({ length: count }, (_, i) => `<si><t>string ${i}</t></si>`).join('');
    // Row 1 points at the last string, row 2 at the first, row 3 at one past the end.
    const sheet = `<row r="1"><c r="A1" t="s"><v>${count - 1}</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>${count / 2}</v></c></row>`;
    const book = Workbook.open(handmade('head.xlsx', { strings, sheet }));
    const rows: [number, Cell[]][] = [];
    for await (const batch of book.rows(book.sheets[0] ?? assert.fail('no sheet'), 100, { head: true }))
      for (const row of batch) rows.push([row.number, row.cells]);
    book.close();
    assert.deepEqual(rows, [
      [1, [`string ${count - 1}`]],
      [2, ['string 0', `string ${count / 2}`]],
    ]);
    const beyond = Workbook.open(handmade('head-beyond.xlsx', { strings, sheet: `<row r="1"><c r="A1" t="s"><v>${count}</v></c></row>` }));
    await assert.rejects(async () => {
      for await (const _batch of beyond.rows(beyond.sheets[0] ?? assert.fail('no sheet'), 100, { head: true })) {
      }
    }, /row 1\) refer to its shared strings, which the file does not hold/);
  });
});

/** Every row of the workbook's first sheet, as [row number, cells]. */
async function firstSheet(file: string): Promise<[number, Cell[]][]> {
  return Object.values(await byReader(file))[0]?.rows ?? [];
}

describe('workbook reader: what real workbooks hold (issue 39 item 7)', () => {
  it('decodes _xHHHH_ escapes written in lower-case hex, as Excel does', async () => {
    const file = handmade('lower-hex.xlsx', {
      strings: '<si><t>Rich Text_x000d_\nTest</t></si>',
      sheet: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>a_x000a_b_x00e9_</t></is></c></row>',
    });
    assert.deepEqual(await firstSheet(file), [[1, ['Rich Text\r\nTest', 'a\nbé']]]);
  });

  it('reads a workbook whose zip names its parts with backslashes (xl\\worksheets\\sheet1.xml)', async () => {
    const entries = [
      {
        name: '_rels\\.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        ),
      },
      { name: 'xl\\workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="Sites" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl\\_rels\\workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      },
      {
        name: 'xl\\worksheets\\sheet1.xml',
        data: Buffer.from(
          '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row></sheetData></worksheet>',
        ),
      },
    ];
    fs.writeFileSync(path.join(dir, 'backslashes.xlsx'), zip(entries));
    assert.deepEqual(await byReader(path.join(dir, 'backslashes.xlsx')), { Sites: { hidden: false, rows: [[1, ['name']]] } });
  });

  it('applies a row style only with customFormat="1", and never over a cell\'s own s="0"', async () => {
    const file = handmade('row-style.xlsx', {
      styles: '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>',
      sheet:
        '<row r="1" s="1" customFormat="1"><c r="A1" s="0"><v>3000</v></c><c r="B1"><v>46000</v></c></row>' +
        '<row r="2" s="1"><c r="A2"><v>3000</v></c></row>',
    });
    assert.deepEqual(await firstSheet(file), [
      [1, [3000, new Date(Date.UTC(2025, 11, 9))]],
      [2, [3000]],
    ]);
  });

  it('reads t="d" dates and times without an offset as the wall-clock time the cell shows, whatever the server\'s time zone', () => {
    const file = handmade('iso-dates.xlsx', {
      sheet:
        '<row r="1"><c r="A1" t="d"><v>2026-03-02T10:30:00</v></c><c r="B1" t="d"><v>2026-03-02</v></c>' +
        '<c r="C1" t="d"><v>10:30:00</v></c><c r="D1" t="d"><v>2026-03-02T10:30:00+11:00</v></c></row>',
    });
    const script = `
      import { Workbook } from ${JSON.stringify(new URL('../../server/imports/sources/xlsx/workbook.ts', import.meta.url).pathname)};
      const book = Workbook.open(process.argv[1]);
      for await (const batch of book.rows(book.sheets[0], 100)) for (const row of batch) console.log(JSON.stringify(row.cells));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'Australia/Melbourne' },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [
      '2026-03-02T10:30:00.000Z',
      '2026-03-02T00:00:00.000Z',
      '1899-12-30T10:30:00.000Z',
      '2026-03-01T23:30:00.000Z',
    ]);
  });

  it('reads numbers in the East-Asian built-in date formats (ids 27-36, 50-58) as dates', async () => {
    const ids = [27, 31, 36, 50, 55, 58];
    const file = handmade('east-asian-dates.xlsx', {
      styles: `<cellXfs count="${ids.length + 1}"><xf numFmtId="0"/>${ids.map((id) => `<xf numFmtId="${id}"/>`).join('')}</cellXfs>`,
      sheet: `<row r="1">${ids.map((_, i) => `<c s="${i + 1}"><v>46000</v></c>`).join('')}<c s="0"><v>46000</v></c></row>`,
    });
    const day = new Date(Date.UTC(2025, 11, 9));
    assert.deepEqual(await firstSheet(file), [[1, [...ids.map(() => day), 46000]]]);
  });
});

describe('workbook reader: hostile workbooks (issue 38)', () => {
  it('reads the small parts in linear time: a <workbookPr> holding one 1 MB word, and 1 MB runs of [ and < in the styles', async () => {
    const word = 'a'.repeat(1024 * 1024);
    const file = handmade('long-word.xlsx', {
      workbookPr: `<workbookPr ${word}/>`,
      styles:
        `<numFmts count="2"><numFmt numFmtId="170" formatCode="${'['.repeat(1024 * 1024)}"/><numFmt numFmtId="171" formatCode="yyyy"/></numFmts>` +
        `<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="170"/><xf numFmtId="171"/></cellXfs>${'<cellXfs '.repeat(100_000)}`,
      sheet: '<row r="1"><c r="A1" s="1"><v>1</v></c><c r="B1" s="2"><v>46000</v></c></row>',
    });
    const started = performance.now();
    assert.deepEqual(await firstSheet(file), [[1, [1, new Date(Date.UTC(2025, 11, 9))]]]);
    // Generous: linear reading takes milliseconds; the regular expressions took minutes.
    assert.ok(performance.now() - started < 20_000, `took ${Math.round(performance.now() - started)} ms`);
  });

  it('refuses a small part that unpacks past its cap, naming the part and the cap', async () => {
    const file = handmade('big-styles.xlsx', {
      styles: `<cellXfs count="1"><xf numFmtId="0"/></cellXfs><!--${'x'.repeat(33 * 1024 * 1024)}-->`,
      sheet: '<row r="1"><c r="A1"><v>1</v></c></row>',
    });
    await assert.rejects(byReader(file), /part xl\/styles\.xml unpacks to more than 32 MB/);
  });

  it('reads comments and CDATA inside a cell as Excel does: a comment is nothing, CDATA is text', async () => {
    const file = handmade('comments.xlsx', {
      strings: '<si><t>one<!-- <b>x</b> -->two</t></si><si><t><![CDATA[a <b> & c]]></t></si>',
      sheet:
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' +
        '<c r="C1" t="inlineStr"><is><t>in<!-- </t></is></c><c r="Z1"><v>9</v> -->line</t></is></c>' +
        '<c r="D1" t="str"><v><![CDATA[x</v>y]]></v></c><c r="E1"><v>4<!-- 5 -->2</v></c></row>',
    });
    assert.deepEqual(await firstSheet(file), [[1, ['onetwo', 'a <b> & c', 'inline', 'x</v>y', 42]]]);
  });

  it('refuses a cell holding a NUL or a lone surrogate (from _x0000_, &#0;, &#xD800; or a NUL byte), naming the cell', async () => {
    const cases: [string, RegExp][] = [
      ['<row r="3"><c r="B3" t="inlineStr"><is><t>a_x0000_b</t></is></c></row>', /Cell B3 of the worksheet holds a NUL character/],
      ['<row r="3"><c r="E3" t="inlineStr"><is><t>a&#0;b</t></is></c></row>', /Cell E3 of the worksheet holds a NUL character/],
      ['<row r="3"><c r="F3" t="str"><v>a&#x00;b</v></c></row>', /Cell F3 of the worksheet holds a NUL character/],
      ['<row r="4"><c r="C4" t="str"><v>a\u0000b</v></c></row>', /Cell C4 of the worksheet holds a NUL character/],
      [
        '<row r="5"><c r="A5" t="inlineStr"><is><t>caf&#xD800;</t></is></c></row>',
        /Cell A5 .* broken character \(an unpaired UTF-16 surrogate\)/,
      ],
      ['<row r="6"><c r="D6" t="s"><v>0</v></c></row>', /Cell D6 .* broken character/],
    ];
    for (const [sheet, message] of cases) {
      const file = handmade('unstorable.xlsx', { sheet, strings: '<si><t>x_xD83D_y</t></si>' });
      await assert.rejects(byReader(file), message);
    }
  });

  it('refuses a cell whose bytes are not UTF-8 (a surrogate as ED A0 80, a Latin-1 é), naming the cell; a U+FFFD written as such is text', async () => {
    const surrogate = Buffer.from([0xed, 0xa0, 0x80]);
    const latin1 = Buffer.from([0xe9]);
    const raw = (...pieces: (string | Buffer)[]) => Buffer.concat(pieces.map((piece) => Buffer.from(piece)));
    const notUtf8 = (cell: string) => new RegExp(`Cell ${cell} of the worksheet holds bytes that are not UTF-8`);
    const cases: [Buffer, Buffer | undefined, RegExp][] = [
      [raw('<row r="2"><c r="B2" t="inlineStr"><is><t>Caf', surrogate, '</t></is></c></row>'), undefined, notUtf8('B2')],
      [raw('<row r="3"><c r="C3" t="str"><v>Caf', latin1, '</v></c></row>'), undefined, notUtf8('C3')],
      [raw('<row r="4"><c r="D4" t="s"><v>0</v></c></row>'), raw('<si><t>Caf', latin1, '</t></si>'), notUtf8('D4')],
      [raw('<row r="5"><c r="E5" t="s"><v>0</v></c></row>'), raw('<si><t>A &amp; B ', surrogate, '</t></si>'), notUtf8('E5')],
      [raw('<row r="6"><c r="F6" t="s"><v>0</v></c></row>'), raw('<si><t>', 'x'.repeat(2000), latin1, '</t></si>'), notUtf8('F6')],
      [
        raw('<row r="7"><c r="G7" t="s"><v>1</v></c></row>'),
        raw('<si><t>A</t></si><si><r><t>B</t></r><r><t>', latin1, '</t></r></si>'),
        notUtf8('G7'),
      ],
    ];
    for (const [sheet, strings, message] of cases) await assert.rejects(byReader(handmade('not-utf8.xlsx', { sheet, strings })), message);
    const unused = handmade('not-utf8-unused.xlsx', {
      sheet: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
      strings: raw('<si><t>A</t></si><si><t>Caf', latin1, '</t></si>'),
    });
    assert.deepEqual(await firstSheet(unused), [[1, ['A']]], 'a string no cell uses is not refused');
    const replacement = handmade('replacement-character.xlsx', {
      sheet: '<row r="1"><c r="A1" t="inlineStr"><is><t>a\uFFFDb</t></is></c><c r="B1" t="s"><v>0</v></c></row>',
      strings: '<si><t>c\uFFFDd</t></si>',
    });
    assert.deepEqual(await firstSheet(replacement), [[1, ['a\uFFFDb', 'c\uFFFDd']]]);
  });

  it('refuses a sheet name holding a NUL, a lone surrogate or bytes that are not UTF-8, naming the sheet by its position', () => {
    const cases: [string | Buffer, RegExp][] = [
      ['De_x0000_pot', /a NUL character/],
      ['De&#0;pot', /a NUL character/],
      ['Caf&#xD800;', /a broken character \(an unpaired UTF-16 surrogate\)/],
      ['_xD83D_', /a broken character/],
      [Buffer.from([0x43, 0x61, 0x66, 0xe9]), /bytes that are not UTF-8/],
      [Buffer.from([0x43, 0x61, 0x66, 0xed, 0xa0, 0x80]), /bytes that are not UTF-8/],
    ];
    for (const [sheetName, what] of cases) {
      const file = handmade('sheet-name.xlsx', { sheet: '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>', sheetName });
      assert.throws(
        () => Workbook.open(file),
        (error: Error) =>
          error instanceof ImportInputError &&
          /^Sheet 1 of the workbook has a name that holds .*, which a sheet name cannot hold: the file is damaged/.test(error.message) &&
          what.test(error.message),
        String(sheetName),
      );
    }
    const named = handmade('sheet-name-ok.xlsx', {
      sheet: '<row r="1"><c r="A1"><v>1</v></c></row>',
      sheetName: 'Caf\u00e9 \uFFFD &#x1F69A;',
    });
    assert.deepEqual(
      Workbook.open(named).sheets.map((sheet) => sheet.name),
      ['Caf\u00e9 \uFFFD \u{1F69A}'],
    );
  });

  it("refuses a row past Excel's row 1,048,576, naming it, before any row is made", async () => {
    const file = handmade('far-row.xlsx', {
      sheet: '<row r="1"><c r="A1"><v>1</v></c></row><row r="999999999999999"><c r="A999999999999999"><v>2</v></c></row>',
    });
    await assert.rejects(byReader(file), /Row 999,999,999,999,999 of the worksheet is beyond row 1,048,576, the last row Excel has/);
    const unnumbered = handmade('last-row.xlsx', { sheet: '<row r="1048576"><c><v>1</v></c></row><row><c><v>2</v></c></row>' });
    await assert.rejects(byReader(unnumbered), /Row 1,048,577 of the worksheet is beyond row 1,048,576/);
  });

  it("refuses a date-formatted number outside Excel's dates (1e300, -1), naming the cell", async () => {
    for (const value of ['1e300', '-1', '2958466']) {
      const file = handmade('far-date.xlsx', {
        styles: '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>',
        sheet: `<row r="2"><c r="C2" s="1"><v>${value}</v></c></row>`,
      });
      await assert.rejects(byReader(file), /Cell C2 of the worksheet holds .* in a date format, which is not a date Excel can show/, value);
    }
  });

  it('hands one long shared string used by 480 cells to each as the same string: 480 rows of a 1 MB string read in a 64 MB heap', () => {
    const big = 'x'.repeat(1024 * 1024);
    const sheet = Array.from({ length: 480 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`).join('');
    const file = handmade('shared-480.xlsx', { strings: `<si><t>${big}</t></si>`, sheet });
    const script = `
      import { Workbook } from ${JSON.stringify(new URL('../../server/imports/sources/xlsx/workbook.ts', import.meta.url).pathname)};
      const book = Workbook.open(process.argv[1]);
      const kept = [];
      for await (const batch of book.rows(book.sheets[0], 100)) for (const row of batch) kept.push(row.cells[0]);
      console.log(JSON.stringify({ rows: kept.length, length: kept[479].length }));`;
    const run = spawnSync(process.execPath, ['--max-old-space-size=64', '--input-type=module', '-e', script, file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr.slice(-1500));
    assert.deepEqual(JSON.parse(run.stdout), { rows: 480, length: big.length });
  });

  it('refuses a row whose cells hold more text than the row limit (serve --max-line-kb), however they share it', async () => {
    const file = handmade('wide-row.xlsx', {
      strings: `<si><t>${'x'.repeat(1024 * 1024)}</t></si>`,
      sheet: `<row r="7">${['A', 'B', 'C', 'D', 'E'].map((c) => `<c r="${c}7" t="s"><v>0</v></c>`).join('')}</row>`,
    });
    await assert.rejects(
      byReader(file),
      /Row 7 of the worksheet holds more text than the limit of 4,096 KB \(serve --max-line-kb\) for one row/,
    );
  });
});
