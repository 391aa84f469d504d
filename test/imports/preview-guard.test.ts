/**
 * Issue 32 points 1 and 6 through the API, with the shipped offline geocoder: the preview says
 * when a file's columns are another kind's (`looks_like_kind`), and warns (not excludes) about a
 * start time that happens twice at a daylight-saving change and a postcode that is not its
 * place's; the import's results carry the same warnings in the same words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

interface PreviewRow {
  index: number;
  row_number: number;
  problems: string[];
  warnings: string[];
}
interface Preview {
  looks_like_kind: string | null;
  rows: PreviewRow[];
}

const APPOINTMENTS_CSV = [
  'tag_name,tag_number,start_date_time,location,duration,service',
  'Site,W-1,2026-04-05 02:30,"1 Collins Street, Melbourne VIC 3000, Australia",60,Cleaning',
  'Site,W-2,2026-03-02 10:00,"Carlton VIC 9999",60,Cleaning',
  'Site,W-3,2026-03-02 11:00,"1 Collins Street, Melbourne VIC 3000, Australia",30,Cleaning',
].join('\r\n');

const QR_CSV = [
  'location,name,type,qr_code_external_reference_id,postcode',
  '"12 Smith Street, Carlton VIC 3053",Carlton depot,SITE,GUARD-1,',
  '"Carlton VIC 9999",Carlton gate,SITE,GUARD-2,',
].join('\r\n');

describe('Import preview guardrails: looks_like_kind and warnings', () => {
  const server = suiteServer();

  const preview = async (content: string, name: string, kind: string): Promise<Preview> => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(content, name, { kind, organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Preview;
  };

  it('says an appointments file previewed as QR codes looks like appointments, and the reverse; null for the right kind', async () => {
    assert.equal((await preview(APPOINTMENTS_CSV, 'visits.csv', 'qrcodes')).looks_like_kind, 'appointments');
    assert.equal((await preview(QR_CSV, 'sites.csv', 'appointments')).looks_like_kind, 'qrcodes');
    assert.equal((await preview(APPOINTMENTS_CSV, 'visits.csv', 'appointments')).looks_like_kind, null);
    assert.equal((await preview(QR_CSV, 'sites.csv', 'qrcodes')).looks_like_kind, null);
    // Only columns both kinds read (location, tag_name) say nothing either way.
    assert.equal((await preview('location,tag_name\r\n"Carlton VIC 3053",Gate\r\n', 'both.csv', 'qrcodes')).looks_like_kind, null);
  });

  it('warns, without excluding, about a repeated local time and a postcode that is not its place', async () => {
    const body = await preview(APPOINTMENTS_CSV, 'visits.csv', 'appointments');
    const [twice, carlton, plain] = body.rows;
    assert.deepEqual(twice?.problems, []);
    assert.match(twice?.warnings[0] ?? '', /^start_date_time: 2026-04-05 02:30 happens twice in Australia\/Melbourne \(clocks go back/);
    assert.deepEqual(carlton?.problems, []);
    assert.deepEqual(carlton?.warnings, [
      "Address located, but not exactly as written: The suburb won: postcode 9999 is not Carlton VIC's, so its own postcode 3053 is used.",
    ]);
    assert.deepEqual(plain?.warnings, []);
    const qr = await preview(QR_CSV, 'sites.csv', 'qrcodes');
    assert.deepEqual(
      qr.rows.map((r) => r.warnings.length),
      [0, 1],
    );
  });

  it("lists the same warnings in the import's results, counted, and keeps the rows", async () => {
    const previewed = await preview(APPOINTMENTS_CSV, 'visits.csv', 'appointments');
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(APPOINTMENTS_CSV, 'visits.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 202, await res.clone().text());
    const { background_task_uuid: uuid } = (await res.json()) as { background_task_uuid: string };
    const task = await waitForTask(server, uuid);
    const results = task?.results ?? {};
    assert.equal(results.excluded, 0);
    assert.equal(results.warned, 2, 'rows warned, not warnings');
    const fromPreview = previewed.rows.flatMap((r) => r.warnings.map((warning) => ({ index: r.index, row_number: r.row_number, warning })));
    assert.deepEqual(results.warnings, fromPreview, 'the preview and the task say the same, in the same words');
  });
});
