import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { AppointmentImportResult } from '../../server/appointments/schemas.ts';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { runCli } from '../support/cli.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * "café" typed on a Mac arrives decomposed (NFD: e + U+0301), on Windows composed (NFC: U+00E9).
 * Both must be stored as one NFC text, so that they are one tag and one reference. Text that is
 * not valid UTF-16 (a lone surrogate) is refused naming its field, never stored as U+FFFD.
 */
const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';
const LONE = 'caf\ud800';
const GOOD = '1 High Street, Carlton VIC 3053';
const MELBOURNE = '1 Collins Street, Melbourne VIC 3000';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

describe('text is stored in NFC, and broken text is refused naming its field', () => {
  const server = suiteServer(startImportTestServer);

  /** Rows of a query on the server's own database file, read-only. */
  const stored = <T>(query: string, ...params: unknown[]): T[] => {
    const db = new Database(path.join(server.dataDir, DATABASE_FILE), { readonly: true });
    try {
      return db.prepare(query).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  it('through the API: an NFD name, reference and tag are stored as NFC, and the NFC reference finds them', async () => {
    const res = await server.request(
      '/api/qrcodes',
      jsonBody({
        organization_uuid: server.organizationUuid,
        location: GOOD,
        name: `Le ${NFD}`,
        external_reference_id: `API-${NFD}`,
        tags: [{ tag_name: `Gate ${NFD}`, tag_number: '1' }],
      }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    const rows = stored<{ name: string; external_reference_id: string; tag_name: string }>(
      `select q.name, q.external_reference_id, t.tag_name from qrcodes q join qr_code_tags t on t.qr_code_uuid = q.uuid
       where q.external_reference_id like 'API-%'`,
    );
    assert.deepEqual(rows, [{ name: `Le ${NFC}`, external_reference_id: `API-${NFC}`, tag_name: `Gate ${NFC}` }]);

    const found = (await (
      await server.request(
        `/api/qrcodes?organization_uuid=${server.organizationUuid}&external_reference_id=${encodeURIComponent(`API-${NFD}`)}`,
      )
    ).json()) as { items: { name: string }[] };
    assert.deepEqual(
      found.items.map((q) => q.name),
      [`Le ${NFC}`],
      'the filter is normalised like the stored text',
    );
  });

  it('through the API: service, inbox and API key names are stored as NFC', async () => {
    const service = await server.request(
      '/api/services',
      jsonBody({ organization_uuid: server.organizationUuid, name: `Nettoyage ${NFD}`, categories: [{ name: `Cat ${NFD}` }] }),
    );
    assert.equal(service.status, 201, await service.clone().text());
    const inbox = await server.request('/api/inboxes', jsonBody({ organization_uuid: server.organizationUuid, name: `Inbox ${NFD}` }));
    assert.equal(inbox.status, 201, await inbox.clone().text());
    const key = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: `Key ${NFD}` }));
    assert.equal(key.status, 201, await key.clone().text());

    assert.deepEqual(stored(`select name from services where name like 'Nettoyage %'`), [{ name: `Nettoyage ${NFC}` }]);
    assert.deepEqual(stored(`select name from service_categories where name like 'Cat %'`), [{ name: `Cat ${NFC}` }]);
    assert.deepEqual(stored(`select name from inboxes where name like 'Inbox %'`), [{ name: `Inbox ${NFC}` }]);
    assert.deepEqual(stored(`select name from api_keys where name like 'Key %'`), [{ name: `Key ${NFC}` }]);
  });

  it('an organization named in NFD by `org create` (a Mac terminal) is stored in NFC', async () => {
    const result = await runCli(['org', 'create', '--name', `Équipe ${NFD}`.normalize('NFD'), '--data-dir', server.dataDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(stored(`select name from organizations where name like '%quipe %'`), [{ name: `\u00c9quipe ${NFC}` }]);
  });

  it('through a CSV import: NFD and NFC "café" references are one QR code, and its tag is stored once, in NFC', async () => {
    const csv = [
      'name,location,qr_code_external_reference_id,tag_name,tag_number',
      `Mac ${NFD},"${GOOD}",CSV-${NFD},Tag ${NFD},7`,
      `Windows ${NFC},"${GOOD}",CSV-${NFC},Tag ${NFC},7`,
    ].join('\r\n');
    const res = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(Buffer.from(csv, 'utf8'), 'sites.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    const answer = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200, JSON.stringify(answer));
    assert.deepEqual([answer.inserted, answer.updated, answer.excluded], [1, 1, 0], JSON.stringify(answer));
    assert.deepEqual(stored(`select name, external_reference_id from qrcodes where external_reference_id like 'CSV-%'`), [
      { name: `Windows ${NFC}`, external_reference_id: `CSV-${NFC}` },
    ]);
    assert.deepEqual(stored(`select tag_name from qr_code_tags where tag_name like 'Tag %'`), [{ tag_name: `Tag ${NFC}` }]);
  });

  it('through an appointment import: an NFC service name finds the NFD one in the catalog, and NFD and NFC references are one appointment', async () => {
    const service = await server.request(
      '/api/services',
      jsonBody({ organization_uuid: server.organizationUuid, name: `Entretien ${NFD}` }),
    );
    assert.equal(service.status, 201, await service.clone().text());
    const row = (reference: string, tagName: string, serviceName: string) => ({
      tag_name: tagName,
      tag_number: '3',
      start_date_time: '2026-03-02 09:00',
      location: MELBOURNE,
      service: serviceName,
      job_reference_id: reference,
      organization_uuid: server.organizationUuid,
    });
    const res = await server.request(
      '/api/appointment_schedule/bulk?processing_mode=sync',
      jsonBody([row(`JOB-${NFD}`, `Door ${NFD}`, `Entretien ${NFC}`), row(`JOB-${NFC}`, `Door ${NFC}`, `Entretien ${NFD}`)]),
    );
    const answer = (await res.json()) as AppointmentImportResult;
    assert.equal(res.status, 200, JSON.stringify(answer));
    assert.deepEqual(answer.excluded_appointments, []);
    assert.deepEqual(stored(`select job_reference_id, service from appointment_schedules where job_reference_id like 'JOB-%'`), [
      { job_reference_id: `JOB-${NFC}`, service: `Entretien ${NFC}` },
    ]);
    assert.deepEqual(stored(`select tag_name from qr_code_tags where tag_name like 'Door %'`), [{ tag_name: `Door ${NFC}` }]);
  });

  it('a lone surrogate in a JSON body is a 400 naming the field, and nothing is stored', async () => {
    const res = await server.request(
      '/api/qrcodes',
      jsonBody({
        organization_uuid: server.organizationUuid,
        location: GOOD,
        name: 'Broken',
        external_reference_id: 'LONE-1',
        tags: [{ tag_name: LONE, tag_number: '1' }],
      }),
    );
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      body.error.details?.map((d) => d.path),
      ['body.tags.0.tag_name'],
    );
    assert.match(body.error.message, /tags\.0\.tag_name contains a broken character \(an unpaired UTF-16 surrogate\)/);
    assert.deepEqual(stored(`select uuid from qrcodes where external_reference_id = 'LONE-1'`), []);
    assert.deepEqual(stored(`select tag_name from qr_code_tags where tag_name like '%\uFFFD%'`), []);
  });

  it('a JSON body with bytes that are not UTF-8 (Latin-1 "café") is a 400 naming the byte, and nothing is stored', async () => {
    const before = `{"organization_uuid":"${server.organizationUuid}","location":"${GOOD}","external_reference_id":"LATIN-1","name":"caf`;
    const body = Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await server.request('/api/qrcodes', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(res.status, 400);
    const answer = (await res.json()) as ErrorBody;
    assert.equal(answer.error.code, 'VALIDATION_ERROR');
    assert.match(answer.error.message, new RegExp(`not UTF-8.*byte ${before.length}\\b.*Send the body as UTF-8`));
    assert.deepEqual(stored(`select name from qrcodes where external_reference_id = 'LATIN-1'`), []);
  });

  it('a lone surrogate in a JSON import excludes that row naming the column; the other rows import', async () => {
    const res = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      jsonBody([
        { organization_uuid: server.organizationUuid, location: GOOD, name: 'Whole', qr_code_external_reference_id: 'JSON-OK' },
        { organization_uuid: server.organizationUuid, location: GOOD, name: LONE, qr_code_external_reference_id: 'JSON-LONE' },
      ]),
    );
    const answer = (await res.json()) as { qr_code_inserted: number; excluded_qr_codes: { index: number; error: string }[] };
    assert.equal(res.status, 200, JSON.stringify(answer));
    assert.equal(answer.qr_code_inserted, 1);
    assert.deepEqual(
      answer.excluded_qr_codes.map((e) => e.index),
      [1],
    );
    assert.match(answer.excluded_qr_codes[0]?.error ?? '', /name: contains a broken character \(an unpaired UTF-16 surrogate\)/);
    assert.deepEqual(stored(`select name from qrcodes where external_reference_id like 'JSON-%'`), [{ name: 'Whole' }]);
  });
});
