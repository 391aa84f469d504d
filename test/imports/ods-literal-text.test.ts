import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { readOds } from '../../server/imports/sources/sheetjs/read-ods.ts';
import { odsBook, zip } from '../fixtures/hostile/generate.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * Text that reads like Excel's `_xHHHH_` escapes (`_x0041_` for "A", `_x0000_` for a NUL) is
 * literal in an .ods: OpenDocument has no such escape, and LibreOffice shows the seven characters
 * typed. Through the API, the preview and what an import stores are the cell's text as
 * LibreOffice shows it; in an .xlsx the escapes are Excel's encoding and are undone as before.
 */

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const LOCATION = '1 High Street, Carlton VIC 3053';

interface Preview {
  sheets: { name: string; rows: number }[] | null;
  rows: { row_number: number; values: Record<string, unknown> }[];
}

/** A one-sheet .xlsx whose column A is shared strings `names` under the header "name", and column B the same address. */
function sharedStringsWorkbook(names: string[]): Buffer {
  const strings = ['name', 'location', LOCATION, ...names];
  const row = (r: number, a: number) =>
    `<row r="${r}"><c r="A${r}" t="s"><v>${a}</v></c><c r="B${r}" t="s"><v>${r === 1 ? 1 : 2}</v></c></row>`;
  const rows = [row(1, 0), ...names.map((_, i) => row(i + 2, i + 3))].join('');
  const part = (name: string, xml: string) => ({
    name,
    data: Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`),
  });
  const relationship = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return zip([
    part(
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
    part(
      '_rels/.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
    ),
    part(
      'xl/workbook.xml',
      `<workbook xmlns="${main}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship('rId1', 'worksheet', 'worksheets/sheet1.xml')}${relationship('rId2', 'sharedStrings', 'sharedStrings.xml')}</Relationships>`,
    ),
    part('xl/worksheets/sheet1.xml', `<worksheet xmlns="${main}"><sheetData>${rows}</sheetData></worksheet>`),
    part('xl/sharedStrings.xml', `<sst xmlns="${main}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`),
  ]);
}

/** Pieces of cell XML whose runs hide or make an escape: underscores (raw, as references), x, hex digits, tags, a comment, entities. */
const PIECES = ['_', '_', 'x', 'X', '0', '4', '1', 'F', 'f', 'a', ' ', '&#95;', '&#x5F;', '&#095;', '&#X5F;', '&#120;', '&#x30;', '&amp;'];
const MARKUP = ['<text:span>', '</text:span>', '<text:s/>', '<!-- c -->'];
const ENTITIES: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };

/** SheetJS's reading of a cell's XML with no _xHHHH_ step (its spaces, tags and references as it reads them): the text LibreOffice shows. */
function literal(xml: string, paragraph: boolean): string {
  const text = paragraph
    ? xml
        .replace(/<!--[\s\S]*?-->/g, '')
        .replace(/[\t\r\n]/g, ' ')
        .trim()
        .replace(/ +/g, ' ')
        .replace(/<text:s\/>/g, ' ')
        .replace(/<[^<>]*>/g, '')
    : xml;
  return text.replace(
    /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi,
    (all, code: string | undefined) => ENTITIES[all] ?? String.fromCharCode(Number.parseInt(code ?? '', all.includes('x') ? 16 : 10)),
  );
}

describe('.ods text that reads like an Excel escape', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const upload = (content: Buffer, name: string, fields: Record<string, string> = {}) =>
    fileUpload(content, name, { organization_uuid: org(), ...fields });
  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    assert.equal(res.status, status, text);
    return JSON.parse(text) as T;
  };
  const preview = async (book: Buffer, name: string) =>
    ok<Preview>(await server.request('/api/imports/preview', upload(book, name, { kind: 'qrcodes' })));
  /** The names of the organization's QR codes as the API gives them back, sorted. */
  const storedNames = async () => {
    const list = await ok<{ items: { name: string }[] }>(await server.request(`/api/qrcodes?organization_uuid=${org()}&per_page=100`));
    return list.items.map((q) => q.name).sort();
  };
  const forget = () => server.ctx.db.sqlite.prepare('delete from qrcodes where organization_uuid = ?').run(org());

  it('reads 3,000 generated cells, in paragraphs and office:string-value, as SheetJS reads them with no escape undone', () => {
    let seed = 38;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const generated = (pieces: string[]) => {
      let xml = 'q';
      for (let i = 1 + random(14); i > 0; i--) xml += pieces[random(pieces.length)];
      return `${xml}z`;
    };
    const expected: string[][] = [];
    let rows = '';
    for (let r = 0; r < 1000; r++) {
      const paragraphs = [generated([...PIECES, ...MARKUP, '_x0041_']), generated([...PIECES, ...MARKUP, '_x005F_'])];
      const value = generated(PIECES);
      rows += `<table:table-row>${paragraphs.map((p) => `<table:table-cell office:value-type="string"><text:p>${p}</text:p></table:table-cell>`).join('')}<table:table-cell office:value-type="string" office:string-value="${value}"><text:p>ignored</text:p></table:table-cell></table:table-row>`;
      expected.push([...paragraphs.map((p) => literal(p, true)), literal(value, false)]);
    }
    const cells = (book: XLSX.WorkBook) =>
      ((book.Sheets.Sheet1?.['!data'] ?? []) as { v: unknown }[][]).map((row) => row.map((cell) => cell.v));
    const ods = odsBook(rows);
    assert.deepEqual(cells(readOds(XLSX, ods, { type: 'buffer', dense: true })), expected);
    const undone = cells(XLSX.read(ods, { type: 'buffer', dense: true })).filter(
      (row, r) => JSON.stringify(row) !== JSON.stringify(expected[r]),
    );
    assert.ok(undone.length > 400, `SheetJS alone undoes an escape in ${undone.length} of the 1,000 rows`);
  });

  it('previews and stores an .ods cell typed _x0041_, De_x0000_pot or a_x000D_b in LibreOffice as typed, as the .xlsx and .xls LibreOffice saves do', async () => {
    const typed = ['_x0041_', 'De_x0000_pot', 'a_x000D_b', 'Store _X0041_'];
    for (const format of ['ods', 'xlsx', 'xls']) {
      const shown = await preview(fixture(`workbench/literal-escapes.${format}`), `sites.${format}`);
      assert.deepEqual(
        shown.rows.map((r) => r.values['Site Name']),
        typed,
        `the ${format} preview`,
      );
    }
    const book = fixture('workbench/literal-escapes.ods');
    const sync = await ok<{ inserted: number; excluded: number }>(
      await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(book, 'sites.ods')),
    );
    assert.deepEqual([sync.inserted, sync.excluded], [4, 0]);
    assert.deepEqual(await storedNames(), [...typed].sort());
    forget();
    const accepted = await ok<{ background_task_uuid: string }>(await server.request('/api/qrcodes/bulk', upload(book, 'sites.ods')), 202);
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    assert.deepEqual(await storedNames(), [...typed].sort());
    forget();
  });

  it('reads every way an .ods can spell such text literally, and an .xlsx shared string _x0041_ as "A" and _x0000_ as a NUL it refuses', async () => {
    const row = (first: string, second = `<text:p>${LOCATION}</text:p>`, attributes = '') =>
      `<table:table-row><table:table-cell office:value-type="string"${attributes}>${first}</table:table-cell><table:table-cell office:value-type="string">${second}</table:table-cell></table:table-row>`;
    const rows = [
      row('<text:p>name</text:p>', '<text:p>location</text:p>'),
      row('<text:p>_x005F_x0041_</text:p>'), // Excel's escape of an underscore, literal too
      row('<text:p>&#95;x0042_</text:p>'), // an underscore written as a character reference
      row('<text:p>_<text:span>x0043</text:span>_</text:p>'), // part of the text formatted apart
      row('<text:p>_<!-- a comment -->x0044_</text:p>'),
      row('<text:p>Site &amp; _X0045_</text:p>'),
      // A cell whose text SheetJS takes from office:string-value rather than its paragraph.
      row('<text:p>ignored</text:p>', undefined, ' office:string-value="_x0046_"'),
    ];
    const ods = odsBook(rows.join(''), 'Sites _x0041_');
    const names = ['_x005F_x0041_', '_x0042_', '_x0043_', '_x0044_', 'Site & _X0045_', '_x0046_'];
    const shown = await preview(ods, 'sites.ods');
    assert.deepEqual(shown.sheets, [{ name: 'Sites _x0041_', rows: 7 }]);
    assert.deepEqual(
      shown.rows.map((r) => r.values.name),
      names,
    );
    const sync = await ok<{ inserted: number; excluded: number }>(
      await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(ods, 'sites.ods')),
    );
    assert.deepEqual([sync.inserted, sync.excluded], [names.length, 0]);
    assert.deepEqual(await storedNames(), [...names].sort());
    forget();

    // In an .xlsx, the same spelling is Excel's escape, undone as Excel does.
    const xlsx = sharedStringsWorkbook(['_x0041_', 'a_x000D_b']);
    assert.deepEqual(
      (await preview(xlsx, 'sites.xlsx')).rows.map((r) => r.values.name),
      ['A', 'a\rb'],
    );
    await ok(await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(xlsx, 'sites.xlsx')));
    assert.deepEqual(await storedNames(), ['A', 'a\rb']);
    forget();
    const nul = sharedStringsWorkbook(['Depot', 'De_x0000_pot']);
    for (const res of [
      await server.request('/api/imports/preview', upload(nul, 'sites.xlsx', { kind: 'qrcodes' })),
      await server.request('/api/qrcodes/bulk?processing_mode=sync', upload(nul, 'sites.xlsx')),
    ]) {
      const text = await res.text();
      assert.equal(res.status, 400, text);
      assert.match(text, /Cell A3 of the worksheet holds a NUL character, which cell text cannot hold/);
    }
    assert.deepEqual(await storedNames(), [], 'nothing stored');
  });
});
