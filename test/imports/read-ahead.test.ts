/**
 * An import whose file a thread reads and checks beside the writer (engine/read-ahead.ts) ends
 * exactly as one done in a single thread: the same results, excluded rows with their row numbers
 * and cells, warnings, counts, and the same QR codes and appointments written, in the same order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFileAndWait, startImportTestServer } from '../support/imports.ts';
import type { TestServer } from '../support/server.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';

const ROWS = 6000;

/** Valid rows with a mix of what a file can hold wrong: each kind of problem several batches apart. */
function qrCsv(): string {
  const lines = ['name,location,qr_code_external_reference_id,type,tag_name,tag_number,extra'];
  for (let i = 0; i < ROWS; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    const location = `"${i} High Street, ${suburb} ${state} ${postcode}"`;
    const reference = i % 3 === 0 ? `EXT-${i}` : '';
    if (i % 997 === 5) lines.push('');
    else if (i % 1009 === 7) lines.push(`Site ${i},,${reference},SITE,,,`);
    else if (i % 1013 === 9) lines.push(`Site ${i},${location},${reference},9lives,,,`);
    else if (i % 1019 === 11) lines.push(`Site ${i},"${i} Nowhere Road, Atlantis ZZ 9999",${reference},,,,`);
    else if (i % 1021 === 13) lines.push(`Site ${i},${location},${reference},,Gate,1,`);
    else if (i % 1031 === 15) lines.push(`Site ${i},"${i} High Street,\n${suburb} ${state} ${postcode}",${reference},,,,`);
    else if (i % 1033 === 17) lines.push(`Site ${i},${location},${reference},,,,stray`);
    else if (i % 1039 === 19) lines.push(`Site 0,"0 High Street, ${TINY_SUBURBS[0]?.slice(0, 3).join(' ')}",,,,,`);
    else if (i % 1049 === 21) lines.push(`  Site ${i}\t,${location},EXT-0,site,,,`);
    else lines.push(`Site ${i},${location},${reference},,${i % 50 === 0 ? 'Bin' : ''},${i % 50 === 0 ? i : ''},`);
  }
  // The tag of row 13 again, on another QR code: the writer excludes it (its cells echoed from the raw row).
  lines.push('Other,"1 Other Street, Carlton VIC 3053",,,Gate,1,');
  return `${lines.join('\r\n')}\r\n`;
}

function appointmentCsv(): string {
  const lines = ['tag_name,tag_number,start_date_time,location,duration,service,service_code,timezone_name,job_reference_id'];
  for (let i = 0; i < ROWS; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    const day = String(1 + (i % 28)).padStart(2, '0');
    const start =
      i % 1009 === 7 ? 'soon' : i % 1013 === 9 ? `${day}/03/2026 09:00` : `2026-03-${day} 09:${String(i % 60).padStart(2, '0')}`;
    const service = i % 1019 === 11 ? 'Unknown service' : 'Read-ahead check';
    lines.push(
      `Tag,${i % 700},${start},"${i % 700} High Street, ${suburb} ${state} ${postcode}",${i % 1021 === 13 ? 'x' : 30},${service},,,JOB-${i % 5500}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

interface Written {
  results: Record<string, unknown>;
  rows: unknown[];
}

async function importQr(server: TestServer): Promise<Written> {
  const results = await importFileAndWait<Record<string, unknown>>(server, '/api/qrcodes/bulk', qrCsv(), 'sites.csv');
  const rows = server.ctx.db.sqlite
    .prepare(
      'select name, location, external_reference_id, type, suburb, postcode, latitude, precision, timezone_name, deleted_on is null as live from qrcodes where organization_uuid = ? order by rowid',
    )
    .all(server.organizationUuid);
  return { results, rows };
}

async function importAppointments(server: TestServer): Promise<Written> {
  const service = await server.request('/api/services', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ organization_uuid: server.organizationUuid, name: 'Read-ahead check', code: 'RAC' }),
  });
  assert.equal(service.status, 201, await service.clone().text());
  const results = await importFileAndWait<Record<string, unknown>>(
    server,
    '/api/appointment_schedule/bulk',
    appointmentCsv(),
    'visits.csv',
  );
  const rows = server.ctx.db.sqlite
    .prepare(
      `select t.tag_name, t.tag_number, a.service, a.location, a.start_date_time, a.end_date_time, a.duration, a.timezone_name, a.job_reference_id, a.notes
       from appointment_schedules a join qr_code_tags t on t.uuid = a.qr_code_tag_uuid where a.organization_uuid = ? order by a.rowid`,
    )
    .all(server.organizationUuid);
  return { results, rows };
}

/**
 * Runs an import with the worker processes a server starts meanwhile reading ahead or not: they
 * read the setting when they start (on demand), and each server here is only ever given one.
 */
async function withReadAhead<T>(minBytes: 'Infinity' | '0', run: () => Promise<T>): Promise<T> {
  const saved = process.env.QR_SANDBOX_READ_AHEAD_MIN_BYTES;
  process.env.QR_SANDBOX_READ_AHEAD_MIN_BYTES = minBytes;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.QR_SANDBOX_READ_AHEAD_MIN_BYTES;
    else process.env.QR_SANDBOX_READ_AHEAD_MIN_BYTES = saved;
  }
}

describe('an import read and checked in a thread beside the writer', () => {
  let alone: TestServer;
  let ahead: TestServer;
  before(async () => {
    alone = await withReadAhead('Infinity', () => startImportTestServer());
    ahead = await withReadAhead('0', () => startImportTestServer());
  });
  after(async () => {
    await alone?.stop();
    await ahead?.stop();
  });
  const both = async (run: (server: TestServer) => Promise<Written>) => ({
    alone: await withReadAhead('Infinity', () => run(alone)),
    ahead: await withReadAhead('0', () => run(ahead)),
  });

  it('QR codes: the same results, excluded rows, warnings and written rows as in one thread', async () => {
    const { alone, ahead } = await both(importQr);
    assert.ok((alone.results.excluded as number) >= 8, 'the file has excluded rows of every kind');
    assert.ok(Array.isArray(alone.results.warnings) && alone.results.warnings.length > 0, 'and warnings');
    assert.deepEqual(ahead.results, alone.results);
    assert.deepEqual(ahead.rows, alone.rows);
  });

  it('appointments: the same results, excluded rows, warnings and written rows as in one thread', async () => {
    const { alone, ahead } = await both(importAppointments);
    assert.ok((alone.results.excluded as number) >= 8, 'the file has excluded rows');
    assert.ok((alone.results.upserted as number) > ROWS / 2, 'and written rows');
    assert.deepEqual(ahead.results, alone.results);
    assert.deepEqual(ahead.rows, alone.rows);
  });
});
