/**
 * The workbook attacks of issue 38 (npm run bench -- attacks, ATTACK_ONLY=xlsx38_): a 2.8 KB
 * workbook whose <workbookPr> holds one 1,000,000-byte word (just under the 1 MB from which the ratio is judged); one 1 MB shared string used by 480 cells; 300
 * zip entries pointing at one stream that unpacks to 1 GB; a row numbered 999999999999999; a date
 * cell of 1e300; a header row of three 1 MB cells. Issue 39's .xls and .ods: a 1 KB .ods whose
 * repeats stand for 10^9 cells, an .ods cell of 500,000,000 spaces, a 26-byte .xls SheetJS loops
 * on. Each file is sent to the preview and to a sync import; attacks.bench.ts watches time, memory
 * and /api/health meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { aliasEntries, odsBook, odsRow } from '../test/fixtures/hostile/generate.ts';
import { SHEET_HEAD, type StreamedEntry, text, WORKBOOK_PARTS, writeStreamedZip } from './attack-files.ts';
import type { ChildServer } from './support.ts';

const MB = 1024 * 1024;

/** The bench's workbook parts with `workbook.xml` and the sheet's rows replaced, plus `extra` entries. */
function writeWorkbook(
  file: string,
  options: { workbookXml?: string; rows: string; sharedStrings?: StreamedEntry; styles?: string },
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
    { name: 'xl/worksheets/sheet1.xml', pieces: text(`${SHEET_HEAD}${options.rows}</sheetData></worksheet>`) },
  ]);
  return file;
}

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

/** Makes each attack's file once, in `dir`, on first use. */
export function workbookAttackFiles(dir: string) {
  const once = (name: string, write: (file: string) => void) => () => {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) write(file);
    return file;
  };
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
        { name: 'xl/worksheets/sheet1.xml', pieces: text(`${SHEET_HEAD}${DATA_ROW}</sheetData></worksheet>`) },
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

async function send(server: ChildServer, file: string, endpoint: string, fields: Record<string, string>): Promise<Answer> {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const body = (await res.json()) as { error?: { message?: string } };
  return { http: res.status, ms: Math.round(performance.now() - started), message: body.error?.message?.slice(0, 240) ?? null };
}

/** The file through the preview, then a sync import: each answer's status, time and message. */
export async function previewAndSyncImport(server: ChildServer, file: string) {
  return {
    file_kb: Math.round(fs.statSync(file).size / 1024),
    preview: await send(server, file, '/api/imports/preview', { kind: 'qrcodes' }),
    sync_import: await send(server, file, '/api/qrcodes/bulk?processing_mode=sync', {}),
  };
}
