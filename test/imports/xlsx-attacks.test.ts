/**
 * Workbooks made to hurt the reader (issue 38) and workbooks as field admins have them (issue 39
 * item 7), through the API: each gets a clear 400 naming what is wrong, never a 500 or a hang.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { checkWorkbookLimits } from '../../server/imports/sources/zip-limits.ts';
import { aliasEntries, sheetRow, workbook, zip } from '../fixtures/hostile/generate.ts';
import { STORED_EXCLUDED_CHARS } from '../../server/imports/engine/engine.ts';
import { storedExcludedRows } from '../support/import-db.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

const GOOD = '1 High Street, Carlton VIC 3053';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-xlsx-attacks-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

type Entry = { name: string; data: Buffer };

/** Adds a part to the workbook's entries with its relationship from workbook.xml (`type`: styles, sharedStrings, worksheet). */
function addPart(entries: Entry[], id: string, type: string, target: string, data: string): void {
  const rels = entries.find((e) => e.name === 'xl/_rels/workbook.xml.rels');
  assert.ok(rels);
  const relationship = `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  rels.data = Buffer.from(rels.data.toString().replace('</Relationships>', `${relationship}</Relationships>`));
  entries.push({ name: `xl/${target}`, data: Buffer.from(data) });
}

/** The entries of a one-sheet workbook (generate.ts's workbook()), to add to or rename. */
function entriesOf(sheetData: string, styles?: string): Entry[] {
  const bytes = workbook(sheetData);
  const entries: Entry[] = [];
  let at = 0;
  while (bytes.readUInt32LE(at) === 0x04034b50) {
    const nameLength = bytes.readUInt16LE(at + 26);
    const packed = bytes.readUInt32LE(at + 18);
    const name = bytes.toString('utf8', at + 30, at + 30 + nameLength);
    const data = zlib.inflateRawSync(bytes.subarray(at + 30 + nameLength, at + 30 + nameLength + packed));
    entries.push({ name, data });
    at += 30 + nameLength + packed;
  }
  if (styles !== undefined) addPart(entries, 'rId9', 'styles', 'styles.xml', `<styleSheet>${styles}</styleSheet>`);
  return entries;
}

const HEADER = sheetRow(1, ['name', 'location']);
const DATA = sheetRow(2, ['Depot', GOOD]);

describe('hostile and real-world workbooks through the API', () => {
  const server = suiteServer(startImportTestServer);

  const preview = (content: Buffer, fields: Record<string, string> = {}) =>
    server.request(
      '/api/imports/preview',
      fileUpload(content, 'upload.xlsx', { kind: 'qrcodes', organization_uuid: server.organizationUuid, ...fields }),
    );
  const syncImport = (content: Buffer) =>
    server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      fileUpload(content, 'upload.xlsx', { organization_uuid: server.organizationUuid }),
    );
  const refused = async (res: Response, message: RegExp) => {
    const text = await res.text();
    assert.equal(res.status, 400, text.slice(0, 400));
    assert.match((JSON.parse(text) as { error: { message: string } }).error.message, message);
  };

  it('refuses zip entries that share one stream (an overlapping-entries bomb) and a name listed twice', async () => {
    const base = zip([...entriesOf(HEADER + DATA), { name: 'xl/media/blob.bin', data: Buffer.alloc(2 * 1024 * 1024) }]);
    const overlapping = aliasEntries(
      base,
      'xl/media/blob.bin',
      Array.from({ length: 300 }, (_, i) => `xl/media/copy${i}.bin`),
    );
    await refused(await preview(overlapping), /zip entries xl\/media\/blob\.bin and xl\/media\/copy0\.bin overlap \(share bytes\)/);
    const twice = zip([...entriesOf(HEADER + DATA), { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet/>') }]);
    await refused(await syncImport(twice), /its zip lists the entry xl\/worksheets\/sheet1\.xml twice/);
  });

  it('refuses a zip of more than 10,000 entries, and parts that unpack past --max-xlsx-total-mb together', async () => {
    const many = zip([
      ...entriesOf(HEADER + DATA),
      ...Array.from({ length: 10_000 }, (_, i) => ({ name: `xl/media/m${i}.bin`, data: Buffer.from('x') })),
    ]);
    const manyFile = path.join(dir, 'many.xlsx');
    fs.writeFileSync(manyFile, many);
    await assert.rejects(
      checkWorkbookLimits(manyFile, DEFAULT_IMPORT_LIMITS),
      /its zip lists 10,005 entries, more than the 10,000 a workbook may hold/,
    );
    const file = path.join(dir, 'total.xlsx');
    const part = Buffer.alloc(700 * 1024, 'a');
    fs.writeFileSync(
      file,
      zip([...entriesOf(HEADER + DATA), { name: 'xl/media/a.xml', data: part }, { name: 'xl/media/b.xml', data: part }]),
    );
    await assert.rejects(
      checkWorkbookLimits(file, { ...DEFAULT_IMPORT_LIMITS, maxXlsxTotalBytes: 1024 * 1024, maxXlsxRatio: 10_000 }),
      /The workbook's parts unpack to more than 1 MB \(serve --max-xlsx-total-mb\) together \(passed at xl\/media\/b\.xml\)/,
    );
  });

  it('answers a date cell of 1e300 with a 400 naming the cell, in a preview and a sync import', async () => {
    const styles = '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>';
    const file = zip(
      entriesOf(`${HEADER}<row r="2"><c r="A2" t="inlineStr"><is><t>Depot</t></is></c><c r="B2" s="1"><v>1e300</v></c></row>`, styles),
    );
    const message = /Cell B2 of the worksheet holds 1e\+300 in a date format, which is not a date Excel can show/;
    await refused(await preview(file), message);
    await refused(await syncImport(file), message);
  });

  it('refuses a sheet named with _x0000_, &#0; or &#xD800; (it reached the preview\u2019s sheets and the results), naming its position', async () => {
    for (const [name, what] of [
      ['De_x0000_pot', 'a NUL character'],
      ['De&#0;pot', 'a NUL character'],
      ['Caf&#xD800;', 'a broken character (an unpaired UTF-16 surrogate)'],
    ]) {
      const entries = entriesOf(HEADER + DATA);
      const workbookPart = entries.find((e) => e.name === 'xl/workbook.xml');
      assert.ok(workbookPart);
      workbookPart.data = Buffer.from(workbookPart.data.toString().replace('name="Sheet1"', `name="${name}"`));
      const message = new RegExp(
        `^Sheet 1 of the workbook has a name that holds ${what?.replace(/[()]/g, '\\$&')}, which a sheet name cannot hold`,
      );
      await refused(await preview(zip(entries)), message);
      await refused(await syncImport(zip(entries)), message);
    }
  });

  it('refuses a row numbered 999999999999999 with a 400 naming it (not an out-of-memory crash)', async () => {
    const file = workbook(`${HEADER}${DATA}<row r="999999999999999"><c r="A999999999999999"><v>1</v></c></row>`);
    await refused(await syncImport(file), /Row 999,999,999,999,999 of the worksheet is beyond row 1,048,576, the last row Excel has/);
    await refused(await preview(file), /beyond row 1,048,576/);
  });

  it('says a password-protected workbook is encrypted and must be saved without its password', async () => {
    await refused(await preview(encryptedWorkbook()), /protected with a password .* remove the password/);
    await refused(await syncImport(encryptedWorkbook()), /protected with a password/);
  });

  it('stores excluded rows with their cells up to 64 M characters of text: 70 rows sharing one 1 MB string cost 64 MB, not 70, and the count stays exact', async () => {
    const big = `1 ${'x'.repeat(1_000_000)} Street`;
    const rows = Array.from({ length: 70 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>0</v></c></row>`).join('');
    const entries = entriesOf(`<row r="1"><c r="A1" t="inlineStr"><is><t>location</t></is></c></row>${rows}`);
    addPart(entries, 'rId8', 'sharedStrings', 'sharedStrings.xml', `<sst><si><t>${big}</t></si></sst>`);
    const withStrings = zip(entries);
    const res = await server.request(
      '/api/qrcodes/bulk?processing_mode=background',
      fileUpload(withStrings, 'upload.xlsx', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 202, await res.clone().text());
    const uuid = ((await res.json()) as { background_task_uuid: string }).background_task_uuid;
    const task = await waitForTask(server, uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal(task.results?.excluded_count ?? task.results?.excluded, 70, JSON.stringify(task.results));
    const stored = storedExcludedRows(server.dataDir, uuid);
    assert.ok(stored > 0 && stored * big.length <= STORED_EXCLUDED_CHARS + 2 * big.length, `stored ${stored} rows`);
    assert.ok(stored < 70);
  });

  it('names the sheet that has the data when the first sheet is empty', async () => {
    const entries = entriesOf('');
    const workbookPart = entries.find((e) => e.name === 'xl/workbook.xml');
    assert.ok(workbookPart);
    workbookPart.data = Buffer.from(
      workbookPart.data.toString().replace('</sheets>', '<sheet name="Site list" sheetId="2" r:id="rId2"/></sheets>'),
    );
    const sheet = `<worksheet><sheetData>${sheetRow(1, ['Title', 'Notes'])}${sheetRow(2, ['a', 'b'])}</sheetData></worksheet>`;
    addPart(entries, 'rId2', 'worksheet', 'worksheets/sheet2.xml', sheet);
    await refused(
      await preview(zip(entries)),
      /The sheet "Sheet1" is empty: it has no header row\. The sheet "Site list" has data: choose it/,
    );
  });
});

/**
 * A minimal OLE compound file as Excel saves a password-protected .xlsx: a root entry, then the
 * EncryptionInfo and EncryptedPackage streams (512-byte sectors: the directory in sector 0, the FAT in 1).
 */
function encryptedWorkbook(): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(0, 0x30);
  header.writeUInt32LE(0x1000, 0x38);
  header.writeUInt32LE(0xfffffffe, 0x3c);
  header.writeUInt32LE(0xfffffffe, 0x44);
  header.fill(0xff, 0x4c);
  header.writeUInt32LE(1, 0x4c);
  const directory = Buffer.alloc(512);
  ['Root Entry', 'EncryptionInfo', 'EncryptedPackage'].forEach((name, i) => {
    const at = i * 128;
    directory.write(name, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 64);
    directory[at + 66] = i === 0 ? 5 : 2;
  });
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffe, 0);
  fat.writeUInt32LE(0xfffffffd, 4);
  return Buffer.concat([header, directory, fat]);
}
