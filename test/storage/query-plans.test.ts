import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { snapshotFile } from '../../server/snapshots/files.ts';
import { openScratchConnection } from '../../server/imports/preview/scratch-db.ts';
import { importKinds } from '../../server/imports/kinds.ts';
import { messageWaiters } from '../../server/receiver/message-waiters.ts';
import { createInbox, deliver, listMessages } from '../support/inboxes.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody, tempDataDir, type TestServer } from '../support/server.ts';
import { collectSqlStatements, type SqlCollection } from '../support/sql-collector.ts';
import { waitFor } from '../webhooks/support.ts';
import { explainAll, type PlanFinding } from '../support/query-plans.ts';
import { CYCLED_SUBURBS } from '../support/tiny-geocoder.ts';

function qrCsv(rows: number): string {
  const lines = ['name,location,qr_code_external_reference_id,tag_name,tag_number'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] = CYCLED_SUBURBS[i % CYCLED_SUBURBS.length] ?? CYCLED_SUBURBS[0];
    const reference = i % 2 === 0 ? `REF-${i}` : '';
    const location = i % 50 === 49 ? 'Nowhere at all' : `${i + 1} Test Street, ${suburb} ${state} ${postcode}`;
    lines.push([`Site ${i}`, `"${location}"`, reference, i % 3 === 0 ? 'Bin' : '', i % 3 === 0 ? String(i) : ''].join(','));
  }
  return `${lines.join('\n')}\n`;
}

function appointmentCsv(rows: number): string {
  const lines = ['tag_name,tag_number,start_date_time,location,duration,service,job_reference_id'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] = CYCLED_SUBURBS[i % CYCLED_SUBURBS.length] ?? CYCLED_SUBURBS[0];
    const day = String(1 + (i % 28)).padStart(2, '0');
    const reference = i % 2 === 0 ? `JOB-${i % 40}` : '';
    const service = i % 25 === 24 ? 'No Such Service' : 'Plumbing';
    lines.push(
      [
        'Gate',
        String(i % 30),
        `2026-03-${day} 09:00`,
        `"${(i % 7) + 1} Appointment Road, ${suburb} ${state} ${postcode}"`,
        '60',
        service,
        reference,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Drives the API as users do: creating, listing, filtering and paging every kind of record,
 * imports of both kinds in both modes (and dry runs, previews, error reports), webhooks delivered
 * to an inbox of this server, and the inbox's messages. Each step checks its answer, so a step
 * that silently did nothing cannot pass for one that ran its statements.
 */
async function userTraffic(server: TestServer): Promise<void> {
  const org = server.organizationUuid;
  const ok = async (pathname: string, init?: RequestInit): Promise<Record<string, unknown>> => {
    const res = await server.request(pathname, init);
    const text = await res.text();
    assert.ok(res.status < 300, `${init?.method ?? 'GET'} ${pathname}: ${res.status} ${text.slice(0, 300)}`);
    return text && res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const task = async (answer: Record<string, unknown>) => {
    const done = await waitForTask(server, String(answer.background_task_uuid));
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    return done;
  };

  // Settings, keys, services, import handlers.
  await ok(`/api/settings?organization_uuid=${org}`);
  await ok('/api/settings', jsonBody({ allow_http_webhooks: true, webhook_retry_schedule: 'fast' }, 'PATCH'));
  const key = await ok('/api/api-keys', jsonBody({ role: 'viewer', name: 'plans' }));
  await ok('/api/api-keys');
  await ok(`/api/api-keys/${String(key.api_key)}`, { method: 'DELETE' });
  const service = await ok(
    '/api/services',
    jsonBody({ organization_uuid: org, name: 'Gutter Cleaning', code: 'GUT', categories: [{ name: 'Outdoor' }] }),
  );
  await ok(`/api/services/uuid/${String(service.uuid)}`, jsonBody({ name: 'Gutter and Roof Cleaning' }, 'PATCH'));
  await ok(`/api/services?organization_uuid=${org}&search=gutter&per_page=5&page=1`);
  await ok(`/api/services/uuid/${String(service.uuid)}`);
  const handler = await ok(
    '/api/import-handlers',
    jsonBody({ organization_uuid: org, name: 'Acme Export', mapping: { 'Job Ref': 'job_reference_id' } }),
  );
  await ok(`/api/import-handlers?organization_uuid=${org}`);
  await ok(`/api/import-handlers?organization_uuid=${org}&kind=qrcodes`);
  await ok(`/api/import-handlers/uuid/${String(handler.uuid)}`);

  // QR codes one by one.
  const created = await ok(
    '/api/qrcodes',
    jsonBody({
      organization_uuid: org,
      location: '10 Collins Street, Melbourne VIC 3000',
      external_reference_id: 'ONE-1',
      tags: [{ tag_name: 'Door', tag_number: '7' }],
    }),
  );
  const second = await ok('/api/qrcodes', jsonBody({ organization_uuid: org, name: 'Depot', location: '1 George St, Sydney NSW 2000' }));
  await ok(`/api/qrcodes/uuid/${String(created.uuid)}`);
  await ok(
    `/api/qrcodes/uuid/${String(created.uuid)}`,
    jsonBody({ label: 'Front door', tags: [{ tag_name: 'Door', tag_number: '8' }] }, 'PATCH'),
  );
  await ok(`/api/qrcodes/uuid/${String(second.uuid)}`, { method: 'DELETE' });

  // QR code imports: background (file and JSON), sync, dry run, preview, error report.
  const qrTask = await task(await ok('/api/qrcodes/bulk', fileUpload(qrCsv(300), 'sites.csv', { organization_uuid: org })));
  await ok(`/api/qrcodes/bulk/${qrTask.uuid}/errors`);
  await ok(`/api/qrcodes/bulk/${qrTask.uuid}/errors?format=csv`);
  const points = await ok(`/api/qrcodes/points?organization_uuid=${org}`);
  assert.ok(Number(points.count) >= 290, 'the map places the imported QR codes');
  const window = `changed_from=${encodeURIComponent(String(qrTask.created_on))}&changed_to=${encodeURIComponent(String(qrTask.updated_on))}`;
  await ok(`/api/qrcodes/points?organization_uuid=${org}&${window}`);
  await task(
    await ok(
      '/api/qrcodes/bulk',
      jsonBody([
        { organization_uuid: org, name: 'Json site', location: '5 Test Street, Hobart TAS 7000', qr_code_external_reference_id: 'REF-0' },
      ]),
    ),
  );
  await ok('/api/qrcodes/bulk?processing_mode=sync', fileUpload(qrCsv(40), 'sites.csv', { organization_uuid: org }));
  await ok('/api/qrcodes/bulk-import', fileUpload(qrCsv(20), 'sites.csv', { organization_uuid: org }));
  await ok('/api/qrcodes/bulk?dry_run=true', fileUpload(qrCsv(60), 'sites.csv', { organization_uuid: org }));
  await ok('/api/imports/preview', fileUpload(qrCsv(10), 'sites.csv', { organization_uuid: org, kind: 'qrcodes' }));
  for (const query of [
    '',
    '&page=3&per_page=10',
    '&search=test%20street',
    '&search=St',
    '&search=%22AND%20*',
    '&search=street&page=4&per_page=5',
    '&search=site&type=SITE',
    '&type=SITE',
    '&external_reference_id=REF-2',
    '&page=1000',
  ]) {
    await ok(`/api/qrcodes?organization_uuid=${org}${query}`);
  }
  await ok('/api/qrcodes/bulk/template');

  // Appointment imports: background, sync, dry run, with a handler, preview, error report.
  const appointmentTask = await task(
    await ok('/api/appointment_schedule/bulk', fileUpload(appointmentCsv(300), 'visits.csv', { organization_uuid: org })),
  );
  await ok(`/api/appointment_schedule/bulk/errors/${appointmentTask.uuid}`);
  await task(await ok('/api/appointment_schedule/bulk', fileUpload(appointmentCsv(300), 'visits.csv', { organization_uuid: org })));
  await ok('/api/appointment_schedule/bulk?processing_mode=sync', fileUpload(appointmentCsv(30), 'visits.csv', { organization_uuid: org }));
  await ok('/api/appointment_schedule/bulk?dry_run=true', fileUpload(appointmentCsv(60), 'visits.csv', { organization_uuid: org }));
  await ok(
    '/api/imports/preview',
    fileUpload(appointmentCsv(10), 'visits.csv', { organization_uuid: org, kind: 'appointments', org_identifier: 'acme-export' }),
  );

  // Services imports (the catalog's one write path): background, sync, dry run, error report.
  const catalogCsv = ['name,code,categories', 'Plumbing,PLB,Water; Urgent', 'Roof Care,ROF,Outdoor', 'Cleaning,ELE,'].join('\n');
  const servicesTask = await task(await ok('/api/services/bulk', fileUpload(catalogCsv, 'catalog.csv', { organization_uuid: org })));
  await ok(`/api/services/bulk/${servicesTask.uuid}/errors`);
  await ok('/api/services/bulk?processing_mode=sync', fileUpload(catalogCsv, 'catalog.csv', { organization_uuid: org }));
  await ok('/api/services/bulk?dry_run=true', fileUpload(catalogCsv, 'catalog.csv', { organization_uuid: org }));
  const appointments = await ok(`/api/appointment_schedule?organization_uuid=${org}&per_page=5`);
  const first = (appointments.items as { qr_code_uuid: string; job_reference_id: string | null }[])[0];
  assert.ok(first, 'the imports stored appointments');
  for (const query of [
    '&page=4&per_page=20',
    `&qr_code_uuid=${first.qr_code_uuid}`,
    '&job_reference_id=JOB-2',
    '&from=2026-03-05&to=2026-03-09',
    '&from=2026-03-05T00:00:00Z&to=2026-03-09T00:00:00Z',
    `&qr_code_uuid=${first.qr_code_uuid}&from=2026-03-05`,
    '&page=1000',
  ]) {
    await ok(`/api/appointment_schedule?organization_uuid=${org}${query}`);
  }
  await ok('/api/appointment_schedule/bulk/template');

  // Import drafts: the excluded rows fixed in place and imported again.
  const draft = await ok('/api/import-drafts', jsonBody({ background_task_uuid: qrTask.uuid }));
  const drafted = `/api/import-drafts/uuid/${String(draft.uuid)}`;
  await ok(`/api/import-drafts?background_task_uuid=${qrTask.uuid}`);
  await ok('/api/import-drafts');
  await ok(drafted);
  for (const query of ['', '?offset=2&limit=3', '?problems_only=true', '?search=nowhere', '?problems_only=true&search=site'])
    await ok(`${drafted}/rows${query}`);
  await ok(`${drafted}/rows/1`, jsonBody({ column: 'location', value: '1 Test Street, Hobart TAS 7000' }, 'PATCH'));
  await ok(`${drafted}/replace`, jsonBody({ column: 'location', find: 'Nowhere at all', replace: '2 Test Street, Hobart TAS 7000' }));
  await ok(`${drafted}/fill-down`, jsonBody({ column: 'tag_name', from_row_id: 1, to_row_id: 3 }));
  await ok(`${drafted}/delete-rows`, jsonBody({ row_ids: [4] }));
  await ok(`${drafted}/undo`, { method: 'POST' });
  await ok(`${drafted}/download?format=csv`);
  await ok(`${drafted}/download?format=xlsx`);
  await task(await ok(`${drafted}/import`, { method: 'POST' }));
  await ok(drafted);
  await ok(`${drafted}/rows?problems_only=true`);
  await ok(drafted, { method: 'DELETE' });
  const rowsDraft = await ok('/api/import-drafts', jsonBody({ kind: 'appointments', rows: [{ values: { service: 'Plumbng' } }] }));
  const rowsDrafted = `/api/import-drafts/uuid/${String(rowsDraft.uuid)}`;
  await task(await ok(`${rowsDrafted}/import`, { method: 'POST' }));
  const reopened = await ok(rowsDrafted);
  assert.equal(reopened.rows_with_problems, 1, 'the row the import excluded again is open with its problem');

  // Tasks.
  await ok(`/api/background-tasks?organization_uuid=${org}`);
  await ok(`/api/background-tasks?organization_uuid=${org}&page=2&per_page=2`);
  await ok(`/api/background-tasks?organization_uuid=${org}&search=sites`);
  await ok(`/api/background-tasks?organization_uuid=${org}&search=s`);
  await ok(`/api/background-tasks?organization_uuid=${org}&status=FAILED&cancelled=true`);
  await ok(`/api/background-tasks?organization_uuid=${org}&status=FAILED&cancelled=false`);
  await ok(`/api/background-tasks/uuid/${qrTask.uuid}`);

  // Webhooks delivered to an inbox of this server; the inbox's messages.
  const inbox = await createInbox(server, { name: 'plans' });
  const webhook = await ok(
    '/api/webhooks/register',
    jsonBody({ organization_uuid: org, url: inbox.url, events: ['service_confirmation.check_in'] }),
  );
  const simulated = await ok(
    '/api/service-confirmations/simulate',
    jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
  );
  const deliveries = `/api/webhooks/uuid/${String(webhook.uuid)}/deliveries?organization_uuid=${org}`;
  const delivered = await waitFor('the delivery', async () => {
    const page = await ok(deliveries);
    const items = page.items as { delivery_id: string; status: string }[];
    return items[0]?.status === 'delivered' ? items[0] : undefined;
  });
  await ok(`/api/webhooks/uuid/${String(webhook.uuid)}/deliveries/${delivered.delivery_id}/redeliver`, { method: 'POST' });
  await ok(`${deliveries}&page=2&per_page=1`);
  const events = await ok(`/api/webhook-events?organization_uuid=${org}`);
  assert.ok((events.items as unknown[]).length > 0, 'the events list has the event');
  await ok(`/api/webhook-events?organization_uuid=${org}&page=2&per_page=1`);
  const filtered = await ok(
    `/api/webhook-events?organization_uuid=${org}&type=service_confirmation.check_in&status=delivered&webhook_uuid=${String(webhook.uuid)}`,
  );
  assert.ok((filtered.items as unknown[]).length > 0, 'the filtered events list has the event');
  await ok(`/api/webhook-events?organization_uuid=${org}&status=failed`);
  await ok(`/api/activity?organization_uuid=${org}`);
  const perMinute = await ok(`/api/activity/per-minute?organization_uuid=${org}`);
  assert.ok(Number(perMinute.total) > 0, 'the events per minute count the event');
  const stats = await ok(`/api/webhooks/uuid/${String(webhook.uuid)}/delivery-stats?organization_uuid=${org}&minutes=30`);
  assert.ok(Number((stats.totals as { delivered: number }).delivered) > 0, 'the delivery stats count the delivered attempt');
  await ok(`/api/webhook-deliveries/${delivered.delivery_id}?organization_uuid=${org}`);
  await ok(`/api/webhooks?organization_uuid=${org}`);
  for (const query of [
    '',
    '&status=delivered',
    `&webhook_uuid=${String(webhook.uuid)}`,
    '&since=2020-01-01T00:00:00Z&status=failed',
    '&page=3&per_page=1',
  ]) {
    await ok(`/api/webhooks/deliveries?organization_uuid=${org}${query}`);
  }
  await ok('/api/webhooks/deliveries/redeliver', jsonBody({ organization_uuid: org, failed: true, since: '2020-01-01T00:00:00Z' }));
  await ok('/api/webhooks/deliveries/redeliver', jsonBody({ organization_uuid: org, failed: true, webhook_uuid: String(webhook.uuid) }));
  await ok(`/api/webhooks/uuid/${String(webhook.uuid)}`);
  await ok(`/api/webhooks/uuid/${String(webhook.uuid)}`, jsonBody({ is_active: false }, 'PATCH'));
  await ok(`/api/service-confirmations?organization_uuid=${org}&per_page=2`);
  const confirmation = (simulated as { confirmation?: { uuid: string } }).confirmation;
  if (confirmation) await ok(`/api/service-confirmations/uuid/${confirmation.uuid}`);
  const messages = await waitFor('two messages in the inbox', async () => {
    const page = await listMessages(server, inbox.uuid, 'per_page=100');
    return page.items.length >= 2 ? page.items : undefined;
  });
  const message = messages[0];
  assert.ok(message);
  for (const query of [
    'event_type=service_confirmation.check_in',
    'decrypted=true',
    'signature_status=valid',
    'duplicate=true',
    'from=2020-01-01T00:00:00Z&page=2&per_page=1',
  ]) {
    await listMessages(server, inbox.uuid, query);
  }
  const wait = `/api/inboxes/uuid/${inbox.uuid}/messages/wait?organization_uuid=${org}&timeout_s=0`;
  await ok(`${wait}&event_type=service_confirmation.check_in&signature_status=valid`);
  await ok(`${wait}&after=${message.uuid}`);
  if (message.event_id) await ok(`${wait}&after=${message.event_id}`);
  // A wait held until a message arrives: the read that answers the woken waits of an inbox.
  const cursor = await deliver(inbox.url, 'before the wait', {});
  const held = ok(`${wait.replace('timeout_s=0', 'timeout_s=30')}&after=${cursor.messageUuid}`);
  await waitFor('the wait is held', async () => (messageWaiters(server.ctx).held(inbox.uuid) > 0 ? true : undefined));
  await deliver(inbox.url, 'wakes the wait', {});
  await held;
  await ok(`/api/inboxes?organization_uuid=${org}`);
  await ok(`/api/inboxes/uuid/${inbox.uuid}?organization_uuid=${org}`);
  await ok(`/api/inboxes/uuid/${inbox.uuid}/messages/${message.uuid}?organization_uuid=${org}`);
  await ok(`/api/inboxes/uuid/${inbox.uuid}/messages/${message.uuid}/body?organization_uuid=${org}`);
  await ok(`/api/inboxes/uuid/${inbox.uuid}/messages/${message.uuid}/replay`, jsonBody({ url: inbox.url }));
  await ok(`/api/inboxes/uuid/${inbox.uuid}/reverify`, jsonBody({}));
  await ok(`/api/inboxes/uuid/${inbox.uuid}/export?organization_uuid=${org}`);
  await ok(`/api/inboxes/uuid/${inbox.uuid}/messages`, { method: 'DELETE' });
  await ok(`/api/inboxes/uuid/${inbox.uuid}`, { method: 'DELETE' });
  await ok(`/api/webhooks/uuid/${String(webhook.uuid)}`, { method: 'DELETE' });
  await ok(`/api/import-handlers/uuid/${String(handler.uuid)}`, { method: 'DELETE' });
  await ok(`/api/services/uuid/${String(service.uuid)}`, { method: 'DELETE' });

  // Snapshots: save, restore, reset.
  await ok('/api/snapshots', jsonBody({ name: 'plans' }));
  await ok('/api/snapshots');
  await ok('/api/snapshots/plans/restore', jsonBody({}));
  await ok('/api/reset', jsonBody({ empty: true }));
  await ok('/api/snapshots/plans/restore', jsonBody({}));
}

describe('query plans of every statement the server prepares', () => {
  const dataDir = tempDataDir('qr-plans-');
  let collection: SqlCollection;
  let statements: string[] = [];
  let organizationUuid = '';
  before(async () => {
    // Migrated before the collection starts: a migration runs once, and a table it makes anew
    // (import_jobs_next in 030) is gone by the time its statements are explained.
    await (await openDatabase(dataDir)).close();
    collection = collectSqlStatements(path.join(dataDir, 'statements.jsonl'));
    const server = await startImportTestServer({ dataDir });
    organizationUuid = server.organizationUuid;
    try {
      await userTraffic(server);
    } finally {
      await server.stop();
      collection.stop();
    }
    statements = collection.statements();
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('collects the statements of the server, its import workers and its dry runs', () => {
    const has = (pattern: RegExp) => statements.some((sql) => pattern.test(sql));
    assert.ok(has(/insert into "qrcodes"/), 'QR code inserts (import worker)');
    assert.ok(has(/insert into "appointment_schedules"/), 'appointment inserts (import worker)');
    assert.ok(has(/insert into temp\./), 'dry-run shadow tables');
    assert.ok(has(/from "webhook_deliveries"/), 'webhook deliveries');
    assert.ok(has(/from "inbox_messages"/), 'inbox messages');
    assert.ok(has(/^select count\(\*\) as "n" from "qrcode_search"/), 'search totals (count thread)');
    assert.ok(has(/^insert into snapshot\.qrcodes select rowid, \* from main\.qrcodes/), 'snapshot copies');
    assert.ok(has(/^insert into main\.qrcodes \(.*\) select .* from snapshot\.qrcodes/), 'snapshot restores');
    assert.ok(statements.length > 100, `only ${statements.length} statements were collected`);
  });

  it('uses an index for every statement on an organization-scoped table', async () => {
    // Every kind's dry-run shadows, as the registry's kinds declare them.
    const kinds = await Promise.all(Object.values(importKinds).map((entry) => entry.load()));
    const sqlite = new SQLite(databasePath(dataDir), { readonly: true });
    // A snapshot's statements read or write the snapshot file, attached as `snapshot` (server/snapshots/store.ts).
    sqlite.prepare('attach database ? as snapshot').run(snapshotFile(dataDir, organizationUuid, 'plans'));
    const scratch = openScratchConnection(
      dataDir,
      '00000000-0000-0000-0000-000000000000',
      [...new Set(kinds.flatMap((kind) => kind.writtenTables))],
      [...new Set(kinds.flatMap((kind) => kind.shadowExtras ?? []))],
    );
    let findings: PlanFinding[];
    try {
      findings = explainAll(statements, sqlite, scratch.sqlite);
    } finally {
      sqlite.close();
      void scratch.close();
    }
    const checked = findings.filter((f) => f.plan.length > 0);
    console.log(`EXPLAIN QUERY PLAN of ${checked.length} statements (${findings.length} collected):`);
    for (const finding of checked)
      console.log(
        `  ${finding.problem ? 'SCAN!' : 'ok   '} ${finding.sql.replace(/\s+/g, ' ').slice(0, 220)}\n        ${finding.plan.join(' | ')}`,
      );
    const unexplained = findings.filter((f) => f.error);
    assert.deepEqual(
      unexplained.map((f) => `${f.sql}: ${f.error}`),
      [],
      'statements that could not be explained',
    );
    const scans = findings.filter((f) => f.problem);
    assert.deepEqual(
      scans.map((f) => `${f.problem}\n    in ${f.sql}`),
      [],
      'statements that scan an organization-scoped table',
    );
  });
});
