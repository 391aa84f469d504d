/**
 * The workbook attacks of issue 38 (npm run bench -- attacks, ATTACK_ONLY=xlsx38_): a 2.8 KB
 * workbook whose <workbookPr> holds one 1,000,000-byte word (just under the 1 MB from which the
 * ratio is judged); one 1 MB shared string used by 480 cells; 300 zip entries pointing at one
 * stream that unpacks to 1 GB; a row numbered 999999999999999; a date cell of 1e300; a header row
 * of three 1 MB cells; comments and CDATA inside cells; a NUL or a lone surrogate in cell text, six
 * ways, and an .ods cell whose bytes are not UTF-8; the sheet's entry listed twice (as it is, in
 * other case, with backslashes); rows out of order. Issue 39's .xls and .ods: a 1 KB .ods whose repeats stand for 10^9 cells, an .ods cell of
 * 500,000,000 spaces, a 26-byte .xls SheetJS loops on. Each file is sent to the preview and to a
 * sync import (with the rows read, where what is read is the attack); attacks.bench.ts watches
 * time, memory and /api/health meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { aliasEntries, odsBook, odsRow, sheetRow } from '../test/fixtures/hostile/generate.ts';
import { SHEET_HEAD, type StreamedEntry, text, WORKBOOK_PARTS, writeStreamedZip } from './attack-files.ts';
import { type ChildServer, round } from './support.ts';

const MB = 1024 * 1024;

/** The bench's workbook parts with `workbook.xml` and the sheet's rows (text, or raw bytes) replaced, plus `extra` entries after the sheet. */
function writeWorkbook(
  file: string,
  options: { workbookXml?: string; rows: string | Buffer; sharedStrings?: StreamedEntry; styles?: string; extra?: StreamedEntry[] },
): string {
  const parts = WORKBOOK_PARTS(options.sharedStrings !== undefined).map((part) => {
    if (part.name === 'xl/workbook.xml' && options.workbookXml) return { name: part.name, pieces: text(options.workbookXml) };
    if (part.name === 'xl/_rels/workbook.xml.rels' && options.styles) {
      const rels = Buffer.concat([...part.pieces()]).toString();
      return {
        name: part.name,
        pieces: text(
          rels.replace(
            '</Relationships>',
            '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
          ),
        ),
      };
    }
    return part;
  });
  writeStreamedZip(file, [
    ...parts,
    ...(options.sharedStrings ? [options.sharedStrings] : []),
    ...(options.styles ? [{ name: 'xl/styles.xml', pieces: text(`<styleSheet>${options.styles}</styleSheet>`) }] : []),
    { name: 'xl/worksheets/sheet1.xml', pieces: sheet(options.rows) },
    ...(options.extra ?? []),
  ]);
  return file;
}

/** The sheet part: the bench's header row, then `rows`. */
const sheet = (rows: string | Buffer) => () => [Buffer.from(SHEET_HEAD), Buffer.from(rows), Buffer.from('</sheetData></worksheet>')];

const DATA_ROW =
  '<row r="2"><c r="A2" t="inlineStr"><is><t>Depot</t></is></c><c r="B2" t="inlineStr"><is><t>1 High Street, Carlton VIC 3053</t></is></c></row>';

/** `chars` of pseudo-random lower-case words (a short-period generator: it packs about 85 to 1, under the ratio limit of 200). */
function words(chars: number): string {
  let seed = 7;
  let out = '';
  while (out.length < chars) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out += seed % 7 === 0 ? ' ' : String.fromCharCode(97 + (seed % 26));
  }
  return out;
}

const LOCATION_B2 = '<c r="B2" t="inlineStr"><is><t>1 High Street, Carlton VIC 3053</t></is></c>';

/** A workbook whose row 2 has `name` (raw XML text, or bytes) as its inline name and a good location. */
const inlineName = (name: string | Buffer) => (file: string) =>
  writeWorkbook(file, {
    rows: Buffer.concat([
      Buffer.from('<row r="2"><c r="A2" t="inlineStr"><is><t>'),
      Buffer.from(name),
      Buffer.from(`</t></is></c>${LOCATION_B2}</row>`),
    ]),
  });

/** A good workbook with a second sheet part named `name` after its sheet, whose row reads Impostor. */
const impostorAs = (name: string) => (file: string) =>
  writeWorkbook(file, {
    rows: DATA_ROW,
    extra: [{ name, pieces: sheet(sheetRow(2, ['Impostor', '9 High Street, Carlton VIC 3053'])) }],
  });

/** Makes each attack's file once, in `dir`, on first use. */
export function workbookAttackFiles(dir: string) {
  const once = (name: string, write: (file: string) => void) => () => {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) write(file);
    return file;
  };
  /** Several files, `prefix-variant.xlsx` (`.ods` for a variant named ods_…), made once: their paths by variant. */
  const each = (prefix: string, writes: Record<string, (file: string) => void>) => () =>
    Object.fromEntries(
      Object.entries(writes).map(([variant, write]) => [
        variant,
        once(`${prefix}-${variant}.${variant.startsWith('ods_') ? 'ods' : 'xlsx'}`, write)(),
      ]),
    );
  return {
    longWord: once('workbookpr-1mb-word.xlsx', (file) =>
      writeWorkbook(file, {
        workbookXml: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr ${'a'.repeat(1_000_000)}/><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        rows: DATA_ROW,
      }),
    ),
    sharedString480: once('shared-string-1mb-480-cells.xlsx', (file) =>
      writeWorkbook(file, {
        sharedStrings: {
          name: 'xl/sharedStrings.xml',
          pieces: text(`<sst><si><t>${'y'.repeat(1_000_000)}</t></si></sst>`),
        },
        rows: Array.from(
          { length: 480 },
          (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>0</v></c><c r="B${i + 2}" t="s"><v>0</v></c></row>`,
        ).join(''),
      }),
    ),
    overlapping: once('overlapping-300x1gb.xlsx', (file) => {
      // About 1 byte in 640 unpredictable: it packs about 180 to 1, just under the ratio limit (200).
      const piece = Buffer.alloc(16 * MB, 'a');
      let seed = 12345;
      for (let i = 0; i < piece.length; i += 640) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        piece[i] = 33 + (seed % 90);
      }
      writeWorkbook(file, { rows: DATA_ROW });
      const tmp = `${file}.one`;
      writeStreamedZip(tmp, [
        ...WORKBOOK_PARTS(false),
        { name: 'xl/worksheets/sheet1.xml', pieces: sheet(DATA_ROW) },
        { name: 'xl/media/blob.bin', pieces: () => Array.from({ length: 64 }, () => piece) },
      ]);
      const aliases = Array.from({ length: 299 }, (_, i) => `xl/media/copy${i}.bin`);
      fs.writeFileSync(file, aliasEntries(fs.readFileSync(tmp), 'xl/media/blob.bin', aliases));
      fs.rmSync(tmp);
    }),
    farRow: once('row-999999999999999.xlsx', (file) =>
      writeWorkbook(file, { rows: `${DATA_ROW}<row r="999999999999999"><c r="A999999999999999"><v>1</v></c></row>` }),
    ),
    farDate: once('date-1e300.xlsx', (file) =>
      writeWorkbook(file, {
        styles: '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>',
        rows: `${DATA_ROW}<row r="3"><c r="A3" s="1"><v>1e300</v></c></row>`,
      }),
    ),
    longHeaders: once('header-3x1mb.xlsx', (file) =>
      writeWorkbook(file, {
        rows: `<row r="3">${['A', 'B', 'C'].map((c) => `<c r="${c}3" t="inlineStr"><is><t>${words(1_000_000)}</t></is></c>`).join('')}</row>`,
      }),
    ),
    // Excel drops a comment and keeps CDATA as text: markup inside either must read as neither a cell nor a tag.
    commentsCdata: once('cell-comments-cdata.xlsx', (file) =>
      writeWorkbook(file, {
        sharedStrings: {
          name: 'xl/sharedStrings.xml',
          pieces: text(
            '<sst><si><t>Depot<!-- <b>x</b> --> north</t></si><si><t><![CDATA[1 High Street, Carlton VIC 3053]]></t></si></sst>',
          ),
        },
        rows:
          '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c></row>' +
          '<row r="3"><c r="A3" t="inlineStr"><is><t>Yard<!-- </t></is></c><c r="C3" t="inlineStr"><is><t>hidden</t></is></c> --> east</t></is></c>' +
          '<c r="B3" t="str"><v>2 High Street, <![CDATA[Fitzroy VIC 3065]]></v></c></row>' +
          '<row r="4"><c r="A4" t="str"><v><![CDATA[Gate </v><b> & Co]]></v></c>' +
          '<c r="B4" t="inlineStr"><is><t>5 High Street, Bondi<!-- NSW 9999 --> NSW 2026</t></is></c></row>',
      }),
    ),
    // A NUL or a lone surrogate, each way a file can spell one: refused naming the cell. Raw surrogate bytes are not UTF-8,
    // nor is a Latin-1 é in an .ods (SheetJS read it as U+FFFD).
    unstorable: each('unstorable', {
      nul_escape: inlineName('De_x0000_pot'),
      nul_reference: inlineName('De&#0;pot'),
      nul_byte: inlineName('De\u0000pot'),
      surrogate_reference: inlineName('Caf&#xD800;'),
      surrogate_escape_shared: (file) =>
        writeWorkbook(file, {
          sharedStrings: { name: 'xl/sharedStrings.xml', pieces: text('<sst><si><t>Caf_xD83D_</t></si></sst>') },
          rows: `<row r="2"><c r="A2" t="s"><v>0</v></c>${LOCATION_B2}</row>`,
        }),
      surrogate_bytes: inlineName(Buffer.concat([Buffer.from('Caf'), Buffer.from([0xed, 0xa0, 0x80])])),
      ods_latin1_bytes: (file) =>
        fs.writeFileSync(
          file,
          odsBook(
            Buffer.concat([
              Buffer.from(odsRow(['name', 'location'])),
              Buffer.from(odsRow(['Caf\u00e9', '1 High Street, Carlton VIC 3053']), 'latin1'),
            ]),
          ),
        ),
    }),
    // The sheet listed twice, the second (an impostor) last: as it is, in other case, with backslashes.
    duplicateNames: each('duplicate', {
      same_name: impostorAs('xl/worksheets/sheet1.xml'),
      other_case: impostorAs('XL/Worksheets/Sheet1.XML'),
      backslash: impostorAs('xl\\worksheets\\sheet1.xml'),
    }),
    // Rows 5, 3, 4, 2 in that order; 5 and 4 have no location.
    rowsOutOfOrder: once('rows-out-of-order.xlsx', (file) =>
      writeWorkbook(file, {
        rows: [
          sheetRow(5, ['Lost']),
          sheetRow(3, ['Depot', '1 High Street, Carlton VIC 3053']),
          sheetRow(4, ['Gone']),
          sheetRow(2, ['Yard', '2 High Street, Fitzroy VIC 3065']),
        ].join(''),
      }),
    ),
    // Issue 39: .xls and .ods, read whole by SheetJS.
    odsBillionCells: once('ods-billion-cells.ods', (file) =>
      fs.writeFileSync(
        file,
        odsBook(
          `${odsRow(['name', 'location'])}<table:table-row table:number-rows-repeated="1000000"><table:table-cell office:value-type="string" table:number-columns-repeated="1000"><text:p>x</text:p></table:table-cell></table:table-row>`,
        ),
      ),
    ),
    odsSpaces: once('ods-500m-spaces.ods', (file) =>
      fs.writeFileSync(
        file,
        odsBook(
          `${odsRow(['name', 'location'])}<table:table-row><table:table-cell office:value-type="string"><text:p>a<text:s text:c="500000000"/></text:p></table:table-cell></table:table-row>`,
        ),
      ),
    ),
    xlsLoop: once('xls-looping-record.xls', (file) => {
      const record = (type: number, data: Buffer) =>
        Buffer.concat([Buffer.from([type & 0xff, type >> 8, data.length & 0xff, data.length >> 8]), data]);
      fs.writeFileSync(
        file,
        Buffer.concat([record(0x0009, Buffer.from([2, 0, 0x10, 0])), record(0x0007, Buffer.alloc(0)), record(0x000a, Buffer.alloc(0))]),
      );
    }),
  };
}

interface Answer {
  http: number;
  ms: number;
  message: string | null;
}

async function send(server: ChildServer, file: string, endpoint: string, fields: Record<string, string>) {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const body = (await res.json()) as { error?: { message?: string } } & RowsAnswer;
  const answer: Answer = {
    http: res.status,
    ms: Math.round(performance.now() - started),
    message: body.error?.message?.slice(0, 240) ?? null,
  };
  return { answer, body };
}

/** The parts of a preview's and a sync import's answers that say which rows were read, numbered how, holding what. */
interface RowsAnswer {
  rows?: { row_number: number; values: Record<string, unknown>; problems: string[] }[];
  inserted?: number;
  updated?: number;
  excluded_data?: { row_number: number; error: string; row: { name?: string | null } }[];
}

/**
 * The file through the preview, then a sync import: each answer's status, time and message; with
 * `rows`, also the rows as read (the preview's row numbers and cell texts, the import's inserted and
 * updated counts and excluded rows by number), for attacks on what is read rather than on the reader.
 */
export async function previewAndSyncImport(server: ChildServer, file: string, options: { rows?: boolean } = {}) {
  const preview = await send(server, file, '/api/imports/preview', { kind: 'qrcodes' });
  const sync = await send(server, file, '/api/qrcodes/bulk?processing_mode=sync', {});
  const fileKb = round(fs.statSync(file).size / 1024, 1);
  if (!options.rows) return { file_kb: fileKb, preview: preview.answer, sync_import: sync.answer };
  return {
    file_kb: fileKb,
    preview: {
      ...preview.answer,
      rows: preview.body.rows?.map((r) => ({ row_number: r.row_number, values: r.values, problems: r.problems })),
    },
    sync_import: {
      ...sync.answer,
      inserted: sync.body.inserted,
      updated: sync.body.updated,
      excluded: sync.body.excluded_data?.map((e) => ({ row_number: e.row_number, name: e.row.name, error: e.error })),
    },
  };
}

/** previewAndSyncImport of each file, by name. */
export async function previewAndSyncImportEach(server: ChildServer, files: Record<string, string>) {
  const answers: Record<string, Awaited<ReturnType<typeof previewAndSyncImport>>> = {};
  for (const [name, file] of Object.entries(files)) answers[name] = await previewAndSyncImport(server, file, { rows: true });
  return answers;
}
