import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import Papa from 'papaparse';
import type { AppointmentImportResult, AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import type { QrCode } from '../../server/qrcodes/schemas.ts';
import { seedDemoServices } from '../../server/services/demo.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { bearer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * Files as spreadsheet tools write them (test/fixtures/encodings/, made by make.sh from the UTF-8
 * *.source.csv) imported every way a file can be, and the text read back through the API must be
 * the source's, character for character. The characters are those Windows-1252 and Latin-1 disagree
 * on (“ ” ‘ ’ – — € …) plus é ü ñ ö ç.
 */
const DIR = new URL('../fixtures/encodings/', import.meta.url);
const fixture = (name: string) => fs.readFileSync(new URL(name, DIR));

type Kind = 'qrcodes' | 'appointments';
type Row = Record<string, string>;

const sourceRows = (kind: Kind): Row[] =>
  Papa.parse<Row>(fixture(`${kind}.source.csv`).toString('utf8'), { header: true, skipEmptyLines: true }).data;

interface ToolFile {
  tool: string;
  file: (kind: Kind) => Buffer;
  name: string;
  encoding: string;
}

const TOOL_FILES: ToolFile[] = [
  {
    tool: 'Excel (Windows) "CSV (Comma delimited)": Windows-1252, CRLF',
    file: (k) => fixture(`${k}-excel-windows.csv`),
    name: 'sheet.csv',
    encoding: 'windows-1252',
  },
  { tool: 'Excel "CSV UTF-8": BOM, CRLF', file: (k) => fixture(`${k}-excel-utf8.csv`), name: 'sheet.csv', encoding: 'utf-8' },
  {
    tool: 'Excel "Unicode Text": UTF-16LE with BOM, tab-separated',
    file: (k) => fixture(`${k}-excel-unicode-text.txt`),
    name: 'sheet.txt',
    encoding: 'utf-16le',
  },
  {
    tool: 'LibreOffice, character set 76 (UTF-8)',
    file: (k) => fixture(`${k}-libreoffice-utf8.csv`),
    name: 'sheet.csv',
    encoding: 'utf-8',
  },
  {
    tool: 'LibreOffice, character set 1 (Windows-1252)',
    file: (k) => fixture(`${k}-libreoffice-windows-1252.csv`),
    name: 'sheet.csv',
    encoding: 'windows-1252',
  },
  {
    tool: 'LibreOffice, character set 65535 (Unicode: UTF-16LE with BOM)',
    file: (k) => fixture(`${k}-libreoffice-utf16.csv`),
    name: 'sheet.csv',
    encoding: 'utf-16le',
  },
  {
    tool: 'Google Sheets download: UTF-8 without BOM, CRLF',
    file: (k) => fixture(`${k}-google-sheets.csv`),
    name: 'sheet.csv',
    encoding: 'utf-8',
  },
  {
    tool: 'UTF-16BE with BOM, tab-separated (the Unicode Text file byte-swapped)',
    file: (k) => Buffer.from(fixture(`${k}-excel-unicode-text.txt`)).swap16(),
    name: 'sheet.txt',
    encoding: 'utf-16be',
  },
];

const GOOD = '1 High Street, Carlton VIC 3053';

/** The stored QR codes as the source says they must read (import order = ENC-1, ENC-2, ...). */
function expectedQrCodes(): Row[] {
  return sourceRows('qrcodes').map((r) => ({
    name: r.name!,
    location: r.location!,
    qr_code_name: r.qr_code_name!,
    external_reference_id: r.qr_code_external_reference_id!,
    label: r.label!,
  }));
}

const storedQrCode = (q: QrCode): Row => ({
  name: q.name,
  location: q.location,
  qr_code_name: q.qr_code_name ?? '',
  external_reference_id: q.external_reference_id ?? '',
  label: q.label ?? '',
});

const byReference = (a: Row, b: Row) => (a.external_reference_id ?? '').localeCompare(b.external_reference_id ?? '');

describe('the encoding fixtures are what the tools write', () => {
  it("each file has its tool's bytes, and reading it as Latin-1 (the old behaviour) would garble it", () => {
    const windows = fixture('qrcodes-excel-windows.csv');
    assert.ok(windows.includes(Buffer.from([0x93])) && windows.includes(Buffer.from([0x80])), 'Windows-1252 bytes for “ and €');
    assert.ok(windows.includes('\r\n') && windows[0] === 0x6e, 'CRLF, no BOM');
    assert.notEqual(windows.toString('latin1').includes('“'), true, 'Latin-1 does not give “ for 0x93');
    assert.ok(
      fixture('qrcodes-excel-utf8.csv')
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    );
    const unicodeText = fixture('qrcodes-excel-unicode-text.txt');
    assert.ok(unicodeText.subarray(0, 2).equals(Buffer.from([0xff, 0xfe])));
    assert.ok(unicodeText.includes(Buffer.from('\t', 'utf16le')) && unicodeText.includes(Buffer.from('\r\n', 'utf16le')));
    const google = fixture('qrcodes-google-sheets.csv');
    assert.ok(google.includes('\r\n') && google[0] === 0x6e && !google.subarray(-2).equals(Buffer.from('\r\n')));
    assert.ok(!fixture('qrcodes-libreoffice-utf8.csv').includes('\r'), 'LibreOffice on Linux: LF');
  });
});

describe('uploaded text files in the encodings spreadsheet tools write', () => {
  const server = suiteServer(startImportTestServer);

  /** A fresh organization (with the demo services) per import, so each file's rows are read back alone. */
  async function organization() {
    const credentials = await createOrganization(server.ctx.db.kysely, { name: 'Encodings' });
    seedDemoServices(server.ctx.db, credentials.organization_uuid);
    const auth = bearer(credentials);
    const org = credentials.organization_uuid;
    const request = (pathname: string, init: RequestInit = {}) =>
      server.request(pathname, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: auth } });
    const json = async (pathname: string, init: RequestInit, status: number) => {
      const res = await request(pathname, init);
      assert.equal(res.status, status, await res.clone().text());
      return (await res.json()) as Record<string, unknown>;
    };
    const qrCodes = async () => (await json(`/api/qrcodes?organization_uuid=${org}&per_page=100`, {}, 200)).items as QrCode[];
    const schedules = async () =>
      ((await json(`/api/appointment_schedule?organization_uuid=${org}&per_page=100`, {}, 200)).items as AppointmentSchedule[]).sort(
        (a, b) => a.start_date_time.localeCompare(b.start_date_time),
      );
    const task = (uuid: string) => waitForTask(server, uuid, 1200, auth);
    return { org, request, json, qrCodes, schedules, task };
  }

  const expectedSchedules = () => sourceRows('appointments').map((r) => ({ job_reference_id: r.job_reference_id!, location: r.location! }));
  const scheduleText = (s: AppointmentSchedule) => ({ job_reference_id: s.job_reference_id ?? '', location: s.location });
  const appointmentTags = (codes: QrCode[]) => codes.flatMap((q) => q.tags.map((t) => t.tag_name)).sort();
  const expectedTags = () =>
    sourceRows('appointments')
      .map((r) => r.tag_name!)
      .sort();

  for (const tool of TOOL_FILES) {
    describe(tool.tool, () => {
      it('QR codes, background (POST /api/qrcodes/bulk): the task names the encoding; GET /api/qrcodes reads the text back exactly', async () => {
        const o = await organization();
        const accepted = await o.json('/api/qrcodes/bulk', fileUpload(tool.file('qrcodes'), tool.name, { organization_uuid: o.org }), 202);
        const task = await o.task(accepted.background_task_uuid as string);
        assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
        assert.equal(task.results?.encoding, tool.encoding);
        assert.equal(task.results?.inserted, 3);
        assert.deepEqual((await o.qrCodes()).map(storedQrCode).sort(byReference), expectedQrCodes());
      });

      it('QR codes, sync (POST /api/qrcodes/bulk-import) and dry run: the answers name the encoding; the text reads back exactly', async () => {
        const o = await organization();
        const dry = await o.json(
          '/api/qrcodes/bulk-import',
          fileUpload(tool.file('qrcodes'), tool.name, { organization_uuid: o.org, dry_run: 'true' }),
          200,
        );
        assert.equal(dry.encoding, tool.encoding);
        assert.equal(dry.inserted, 3);
        assert.deepEqual(await o.qrCodes(), [], 'the dry run wrote nothing');
        const dryBackground = await o.json(
          '/api/qrcodes/bulk?dry_run=true',
          fileUpload(tool.file('qrcodes'), tool.name, { organization_uuid: o.org }),
          200,
        );
        assert.equal(dryBackground.encoding, tool.encoding);
        const answer = await o.json(
          '/api/qrcodes/bulk-import',
          fileUpload(tool.file('qrcodes'), tool.name, { organization_uuid: o.org }),
          200,
        );
        assert.equal(answer.encoding, tool.encoding);
        assert.equal(answer.inserted, 3);
        assert.deepEqual((await o.qrCodes()).map(storedQrCode).sort(byReference), expectedQrCodes());
      });

      it('appointments, background and sync (processing_mode=sync): the answers name the encoding; GET /api/appointment_schedule reads the text back exactly', async () => {
        const o = await organization();
        const accepted = await o.json(
          '/api/appointment_schedule/bulk',
          fileUpload(tool.file('appointments'), tool.name, { organization_uuid: o.org }),
          202,
        );
        const task = await o.task(accepted.background_task_uuid as string);
        assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
        assert.equal(task.results?.encoding, tool.encoding);
        assert.equal(task.results?.upserted, 3, JSON.stringify(task.results));
        assert.deepEqual((await o.schedules()).map(scheduleText), expectedSchedules());
        assert.deepEqual(appointmentTags(await o.qrCodes()), expectedTags());

        const other = await organization();
        const sync = (await other.json(
          '/api/appointment_schedule/bulk',
          fileUpload(tool.file('appointments'), tool.name, { organization_uuid: other.org, processing_mode: 'sync' }),
          200,
        )) as AppointmentImportResult;
        assert.equal(sync.encoding, tool.encoding);
        assert.deepEqual(sync.excluded_appointments, []);
        assert.deepEqual(
          sync.appointment_schedules_upserted.map(scheduleText).sort((a, b) => a.location.localeCompare(b.location)),
          expectedSchedules().sort((a, b) => a.location.localeCompare(b.location)),
        );
        assert.deepEqual((await other.schedules()).map(scheduleText), expectedSchedules());
      });

      it('appointments, dry run (sync and background): the answer names the encoding and shows the text exactly, nothing written', async () => {
        const o = await organization();
        for (const mode of ['sync', 'background']) {
          const dry = (await o.json(
            '/api/appointment_schedule/bulk',
            fileUpload(tool.file('appointments'), tool.name, { organization_uuid: o.org, processing_mode: mode, dry_run: 'true' }),
            200,
          )) as AppointmentImportResult & { dry_run: boolean };
          assert.equal(dry.dry_run, true);
          assert.equal(dry.encoding, tool.encoding, mode);
          assert.deepEqual(
            dry.appointment_schedules_upserted.map(scheduleText).sort((a, b) => a.location.localeCompare(b.location)),
            expectedSchedules().sort((a, b) => a.location.localeCompare(b.location)),
          );
        }
        assert.deepEqual(await o.schedules(), []);
      });

      it('preview (POST /api/imports/preview): the encoding, the header and every cell exactly, for both kinds', async () => {
        const o = await organization();
        for (const kind of ['qrcodes', 'appointments'] as const) {
          const body = await o.json(
            '/api/imports/preview',
            fileUpload(tool.file(kind), tool.name, { organization_uuid: o.org, kind }),
            200,
          );
          assert.equal(body.encoding, tool.encoding);
          const rows = sourceRows(kind);
          assert.deepEqual(body.headers, Object.keys(rows[0]!));
          assert.deepEqual(
            (body.rows as { values: Row; problems: string[] }[]).map((r) => r.values),
            rows,
          );
          assert.deepEqual(
            (body.rows as { problems: string[] }[]).flatMap((r) => r.problems),
            [],
          );
        }
      });
    });
  }
});

describe('text that is not in a supported encoding, and encodings that show late', () => {
  const server = suiteServer(startImportTestServer);

  const upload = (content: Buffer, fields: Record<string, string> = {}) =>
    fileUpload(content, 'sites.csv', { organization_uuid: server.organizationUuid, ...fields });
  const refused = async (pathname: string, init: RequestInit, message: RegExp) => {
    const res = await server.request(pathname, init);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.match(body.error.message, message);
  };
  const everyEndpoint = async (content: Buffer, message: RegExp) => {
    await refused('/api/qrcodes/bulk', upload(content), message);
    await refused('/api/qrcodes/bulk-import', upload(content), message);
    await refused('/api/qrcodes/bulk?dry_run=true', upload(content), message);
    await refused('/api/appointment_schedule/bulk', upload(content, { processing_mode: 'sync' }), message);
    await refused('/api/imports/preview', upload(content, { kind: 'qrcodes' }), message);
  };

  /** `n` ASCII rows (about 50 bytes each) after the header. */
  const asciiRows = (n: number) => Array.from({ length: n }, (_, i) => `Site ${i},"${GOOD}",REF-${i}`);
  const csvBytes = (lines: (string | Buffer)[]) =>
    Buffer.concat(lines.map((l) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from('\r\n')])));
  const header = 'name,location,qr_code_external_reference_id';

  it('bytes that are neither UTF-8 nor Windows-1252 (binary junk) are a 400 that says so, everywhere', async () => {
    const junk = Buffer.from([...Buffer.from('name,location\r\nDepot,'), 0xe9, 0x81, 0x8d, 0xff, 0xfe, 0x90, 0x9d, 0x0d, 0x0a]);
    const at = junk.indexOf(0x81);
    await everyEndpoint(junk, new RegExp(`neither UTF-8 nor Windows-1252.*byte 0x81.* at byte ${at} \\(line 2\\)`));
  });

  it('UTF-8 with bytes that are not UTF-8 in it (two encodings mixed) is a 400 naming the byte and line', async () => {
    const mixed = csvBytes([
      header,
      Buffer.from('Café ñ “one”,"1 High Street, Carlton VIC 3053",A'),
      Buffer.concat([Buffer.from('Caf'), Buffer.from([0xe9]), Buffer.from(',"1 High Street, Carlton VIC 3053",B')]),
    ]);
    const at = mixed.indexOf(Buffer.from([0x66, 0xe9])) + 1;
    await everyEndpoint(mixed, new RegExp(`mostly UTF-8 text but has bytes that are not UTF-8, the first at byte ${at} \\(line 3\\)`));
  });

  it('UTF-16 without a byte order mark and NUL bytes are a 400 that names them', async () => {
    await everyEndpoint(Buffer.from(`name,location\r\nDepot,"${GOOD}"\r\n`, 'utf16le'), /UTF-16/);
    const nul = csvBytes([header, ...asciiRows(40), Buffer.from([0x41, 0x00, 0x42])]);
    await everyEndpoint(nul, /NUL byte at byte [\d,]+ \(line 42\)/);
  });

  it("a JSON file in UTF-16LE with BOM (Windows PowerShell's Out-File) is read as such; JSON answers have no encoding field", async () => {
    const records = [
      { organization_uuid: server.organizationUuid, location: GOOD, name: 'Café – “json” €5 …', qr_code_external_reference_id: 'JSON-16' },
    ];
    const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(records), 'utf16le')]);
    const res = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(content, 'sites.json', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    const answer = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200, JSON.stringify(answer));
    assert.equal(answer.inserted, 1);
    assert.equal('encoding' in answer, false);
    const page = (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=JSON-16`)).json()) as {
      items: QrCode[];
    };
    assert.deepEqual(
      page.items.map((q) => q.name),
      ['Café – “json” €5 …'],
    );
  });

  it('a large Windows-1252 file with an accented header: the header is read whole before the task starts', async () => {
    const cp1252 = (text: string) => Buffer.from(text, 'latin1');
    const lines = [
      cp1252('Remarque spéciale,name,location,qr_code_external_reference_id'),
      ...Array.from({ length: 3000 }, (_, i) => cp1252(`é${i},Caf\u00e9 ${i},"${GOOD}",HDR-${i}`)),
    ];
    const content = csvBytes(lines);
    assert.ok(content.length > 128 * 1024);
    const res = await server.request('/api/qrcodes/bulk', upload(content));
    assert.equal(res.status, 202, await res.clone().text());
    const task = await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal(task.results?.encoding, 'windows-1252');
    assert.equal(task.results?.inserted, 3000);
  });

  it('a Windows-1252 file whose first accented character comes after the first 128 KiB (read before the task starts) is still read as Windows-1252', async () => {
    const late = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x6c, 0x61, 0x74, 0x65, 0x94, 0x20, 0x96, 0x20, 0x80, 0x35]);
    const lines = [header, ...asciiRows(4000), Buffer.concat([late, Buffer.from(`,"${GOOD}",LATE`)])];
    const content = csvBytes(lines);
    assert.ok(content.indexOf(0xe9) > 128 * 1024, 'beyond what the checks before the task read');
    const res = await server.request('/api/qrcodes/bulk', upload(content));
    assert.equal(res.status, 202, await res.clone().text());
    const task = await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal(task.results?.encoding, 'windows-1252');
    const page = (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=LATE`)).json()) as {
      items: QrCode[];
    };
    assert.deepEqual(
      page.items.map((q) => q.name),
      ['Café “late” – €5'],
    );
  });

  it('UTF-8 that turns into another encoding after the first 128 KiB: the background task fails naming the byte and line; sync is a 400 and writes nothing', async () => {
    const lines = [
      header,
      'Café ñ “first”,"1 High Street, Carlton VIC 3053",MIX-0',
      ...asciiRows(4000).map((l) => l.replace('REF-', 'MIX-REF-')),
      Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x78, 0x2c, 0x78]),
    ];
    const content = csvBytes(lines);
    const res = await server.request('/api/qrcodes/bulk', upload(content));
    assert.equal(res.status, 202);
    const task = await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.status, 'FAILED');
    assert.match(
      task.error_message ?? '',
      /UTF-8 text until a byte that is not UTF-8 at byte [\d,]+ \(line 4,003\)\. It mixes two encodings/,
    );

    const before = (await (
      await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=MIX-&per_page=1`)
    ).json()) as {
      total: number;
    };
    await refused('/api/qrcodes/bulk-import', upload(content), /line 4,003/);
    const afterSync = (await (
      await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=MIX-&per_page=1`)
    ).json()) as {
      total: number;
    };
    assert.equal(afterSync.total, before.total, 'the sync import wrote rows');
  });
});
