import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importKinds } from '../../server/imports/kinds.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { deliver } from '../support/inboxes.ts';
import { bearer, jsonBody, type TestServer } from '../support/server.ts';
import { startReceiver } from '../webhooks/support.ts';

/** Records of organization A that the table's requests name. */
interface Fixtures {
  org: string;
  qrCode: string;
  webhook: string;
  delivery: string;
  confirmation: string;
  inbox: string;
  message: string;
  task: string;
  viewerKey: string;
  service: string;
  handler: string;
  appointmentTask: string;
  draft: string;
  draftRow: number;
}

interface Call {
  path: string;
  body?: unknown;
  form?: () => RequestInit;
}

/**
 * org: the route acts on organization A's data: another organization's key gets 403 or 404.
 * own: the route acts on the caller's own organization or key (no organization to name).
 * machine: settings of this machine, not of an organization (admin only).
 * public: no credential (health, docs, the inboxes' receiving URL).
 */
type Scope = 'org' | 'own' | 'machine' | 'public';

interface Row {
  scope: Scope;
  call: (f: Fixtures) => Call;
  /** A write a viewer may make, and why. */
  viewerMayWrite?: string;
}

/** Every import kind's bulk routes, from the registry: a new kind is covered without a row to add. */
const KIND_ROUTES: Record<string, Row> = Object.fromEntries(
  Object.values(importKinds).flatMap(({ paths }): [string, Row][] => [
    [`POST ${paths.upload}`, { scope: 'org', call: (f) => ({ path: paths.upload, body: [{ organization_uuid: f.org }] }) }],
    [`GET ${paths.template}`, { scope: 'own', call: () => ({ path: paths.template }) }],
    [`GET ${paths.errorReport}`, { scope: 'org', call: (f) => ({ path: paths.errorReport.replace('{background_task_uuid}', f.task) }) }],
  ]),
);

const ROUTES: Record<string, Row> = {
  ...KIND_ROUTES,
  'GET /api/session': { scope: 'own', call: () => ({ path: '/api/session' }) },
  'GET /api/meta': { scope: 'own', call: () => ({ path: '/api/meta' }) },
  'POST /api/api-keys': { scope: 'own', call: () => ({ path: '/api/api-keys', body: { role: 'viewer', name: 'table' } }) },
  'GET /api/api-keys': { scope: 'own', call: () => ({ path: '/api/api-keys' }) },
  'DELETE /api/api-keys/{api_key}': { scope: 'org', call: (f) => ({ path: `/api/api-keys/${f.viewerKey}` }) },
  'GET /api/background-tasks/uuid/{background_task_uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/background-tasks/uuid/${f.task}` }),
  },
  'GET /api/background-tasks/uuid/{background_task_uuid}/import': {
    scope: 'org',
    call: (f) => ({ path: `/api/background-tasks/uuid/${f.task}/import` }),
  },
  'POST /api/background-tasks/uuid/{background_task_uuid}/cancel': {
    scope: 'org',
    call: (f) => ({ path: `/api/background-tasks/uuid/${f.task}/cancel`, body: {} }),
  },
  'POST /api/background-tasks/uuid/{background_task_uuid}/retry': {
    scope: 'org',
    call: (f) => ({ path: `/api/background-tasks/uuid/${f.task}/retry`, body: {} }),
  },
  'DELETE /api/background-tasks/uuid/{background_task_uuid}/upload': {
    scope: 'org',
    call: (f) => ({ path: `/api/background-tasks/uuid/${f.task}/upload` }),
  },
  'GET /api/webhook-events': { scope: 'org', call: (f) => ({ path: `/api/webhook-events?organization_uuid=${f.org}` }) },
  'GET /api/activity': { scope: 'org', call: (f) => ({ path: `/api/activity?organization_uuid=${f.org}` }) },
  'GET /api/activity/per-minute': { scope: 'org', call: (f) => ({ path: `/api/activity/per-minute?organization_uuid=${f.org}` }) },
  'GET /api/webhook-deliveries/{delivery_id}': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhook-deliveries/${f.delivery}?organization_uuid=${f.org}` }),
  },
  'GET /api/inboxes/uuid/{uuid}/messages/wait': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/wait?organization_uuid=${f.org}&timeout_s=0` }),
  },
  'GET /api/inboxes/uuid/{uuid}/messages/{message_uuid}/resend': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/${f.message}/resend` }),
  },
  'POST /api/inboxes/uuid/{uuid}/messages/{message_uuid}/resend': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/${f.message}/resend`, body: {} }),
  },
  'POST /api/import-drafts': {
    scope: 'org',
    call: (f) => ({
      path: '/api/import-drafts',
      body: { kind: 'qrcodes', organization_uuid: f.org, rows: [{ values: { location: 'x' } }] },
    }),
  },
  'GET /api/import-drafts': { scope: 'own', call: () => ({ path: '/api/import-drafts' }) },
  'GET /api/import-drafts/uuid/{draft_uuid}': { scope: 'org', call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}` }) },
  'DELETE /api/import-drafts/uuid/{draft_uuid}': { scope: 'org', call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}` }) },
  'GET /api/import-drafts/uuid/{draft_uuid}/rows': { scope: 'org', call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/rows` }) },
  'PATCH /api/import-drafts/uuid/{draft_uuid}/rows/{row_id}': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/rows/${f.draftRow}`, body: { column: 'location', value: 'taken over' } }),
  },
  'POST /api/import-drafts/uuid/{draft_uuid}/replace': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/replace`, body: { column: 'location', find: 'x', replace: 'y' } }),
  },
  'POST /api/import-drafts/uuid/{draft_uuid}/fill-down': {
    scope: 'org',
    call: (f) => ({
      path: `/api/import-drafts/uuid/${f.draft}/fill-down`,
      body: { column: 'location', from_row_id: f.draftRow, to_row_id: f.draftRow },
    }),
  },
  'POST /api/import-drafts/uuid/{draft_uuid}/delete-rows': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/delete-rows`, body: { row_ids: [f.draftRow] } }),
  },
  'POST /api/import-drafts/uuid/{draft_uuid}/undo': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/undo`, body: {} }),
  },
  'GET /api/import-drafts/uuid/{draft_uuid}/download': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/download` }),
  },
  'POST /api/import-drafts/uuid/{draft_uuid}/import': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-drafts/uuid/${f.draft}/import`, body: {} }),
  },
  'GET /api/background-tasks': { scope: 'org', call: (f) => ({ path: `/api/background-tasks?organization_uuid=${f.org}` }) },
  'GET /api/qrcodes': { scope: 'org', call: (f) => ({ path: `/api/qrcodes?organization_uuid=${f.org}` }) },
  'GET /api/qrcodes/points': { scope: 'org', call: (f) => ({ path: `/api/qrcodes/points?organization_uuid=${f.org}` }) },
  'POST /api/qrcodes': {
    scope: 'org',
    call: (f) => ({ path: '/api/qrcodes', body: { organization_uuid: f.org, location: '2 High Street, Carlton VIC 3053' } }),
  },
  'GET /api/qrcodes/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/qrcodes/uuid/${f.qrCode}` }) },
  'PATCH /api/qrcodes/uuid/{uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/qrcodes/uuid/${f.qrCode}`, body: { label: 'taken over' } }),
  },
  'DELETE /api/qrcodes/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/qrcodes/uuid/${f.qrCode}` }) },
  'POST /api/qrcodes/bulk-import': {
    scope: 'org',
    call: (f) => ({
      path: '/api/qrcodes/bulk-import',
      form: () => fileUpload('location\r\n"4 High Street, Carlton VIC 3053"\r\n', 'a.csv', { organization_uuid: f.org }),
    }),
  },
  'POST /api/imports/preview': {
    scope: 'org',
    call: (f) => ({
      path: '/api/imports/preview',
      form: () => fileUpload('location\r\n"5 High Street, Carlton VIC 3053"\r\n', 'p.csv', { organization_uuid: f.org, kind: 'qrcodes' }),
    }),
    viewerMayWrite: 'a preview reads the file and writes nothing',
  },
  'POST /api/services': {
    scope: 'org',
    call: (f) => ({ path: '/api/services', body: { organization_uuid: f.org, name: 'Table service', code: 'TBL' } }),
  },
  'GET /api/services': { scope: 'org', call: (f) => ({ path: `/api/services?organization_uuid=${f.org}` }) },
  'GET /api/services/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/services/uuid/${f.service}` }) },
  'PATCH /api/services/uuid/{uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/services/uuid/${f.service}`, body: { name: 'Taken over' } }),
  },
  'DELETE /api/services/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/services/uuid/${f.service}` }) },
  'POST /api/import-handlers': {
    scope: 'org',
    call: (f) => ({
      path: '/api/import-handlers',
      body: { organization_uuid: f.org, name: 'Table handler', mapping: { 'Job Ref': 'job_reference_id' } },
    }),
  },
  'GET /api/import-handlers': { scope: 'org', call: (f) => ({ path: `/api/import-handlers?organization_uuid=${f.org}` }) },
  'GET /api/import-handlers/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/import-handlers/uuid/${f.handler}` }) },
  'PATCH /api/import-handlers/uuid/{uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/import-handlers/uuid/${f.handler}`, body: { name: 'Taken over' } }),
  },
  'DELETE /api/import-handlers/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/import-handlers/uuid/${f.handler}` }) },
  'GET /api/appointment_schedule': { scope: 'org', call: (f) => ({ path: `/api/appointment_schedule?organization_uuid=${f.org}` }) },
  'POST /api/live/tokens': {
    scope: 'own',
    call: () => ({ path: '/api/live/tokens', body: {} }),
    viewerMayWrite: 'a token to read the live stream',
  },
  'GET /api/live': { scope: 'public', call: () => ({ path: '/api/live' }) },
  'GET /api/profiles': { scope: 'machine', call: () => ({ path: '/api/profiles' }) },
  'PUT /api/profiles/{name}': {
    scope: 'machine',
    call: () => ({ path: '/api/profiles/table', body: { name: 'table', base_url: 'https://example.com', api_key: 'k', api_secret: 's' } }),
  },
  'DELETE /api/profiles/{name}': { scope: 'machine', call: () => ({ path: '/api/profiles/table' }) },
  'GET /api/remote/{name}/{path}': { scope: 'machine', call: () => ({ path: '/api/remote/absent/api/qrcodes' }) },
  'POST /api/remote/{name}/{path}': { scope: 'machine', call: () => ({ path: '/api/remote/absent/api/qrcodes', body: {} }) },
  'PUT /api/remote/{name}/{path}': { scope: 'machine', call: () => ({ path: '/api/remote/absent/api/qrcodes', body: {} }) },
  'PATCH /api/remote/{name}/{path}': { scope: 'machine', call: () => ({ path: '/api/remote/absent/api/qrcodes', body: {} }) },
  'DELETE /api/remote/{name}/{path}': { scope: 'machine', call: () => ({ path: '/api/remote/absent/api/qrcodes' }) },
  'POST /api/webhooks/register': {
    scope: 'org',
    call: (f) => ({
      path: '/api/webhooks/register',
      body: { organization_uuid: f.org, url: 'https://example.com/hook', events: ['service_confirmation.check_in'] },
    }),
  },
  'GET /api/webhooks': { scope: 'org', call: (f) => ({ path: `/api/webhooks?organization_uuid=${f.org}` }) },
  'GET /api/webhooks/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}?include_secret=true` }) },
  'PATCH /api/webhooks/uuid/{uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}`, body: { url: 'https://attacker.example/hook' } }),
  },
  'DELETE /api/webhooks/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}` }) },
  'GET /api/webhooks/uuid/{uuid}/deliveries': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}/deliveries?organization_uuid=${f.org}` }),
  },
  'GET /api/webhooks/uuid/{uuid}/delivery-stats': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}/delivery-stats?organization_uuid=${f.org}` }),
  },
  'POST /api/webhooks/uuid/{uuid}/deliveries/{delivery_id}/redeliver': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhooks/uuid/${f.webhook}/deliveries/${f.delivery}/redeliver` }),
  },
  'GET /api/webhooks/deliveries': {
    scope: 'org',
    call: (f) => ({ path: `/api/webhooks/deliveries?organization_uuid=${f.org}&webhook_uuid=${f.webhook}` }),
  },
  'POST /api/webhooks/deliveries/redeliver': {
    scope: 'org',
    call: (f) => ({ path: '/api/webhooks/deliveries/redeliver', body: { organization_uuid: f.org, failed: true } }),
  },
  'POST /api/service-confirmations': {
    scope: 'org',
    call: (f) => ({ path: '/api/service-confirmations', body: { organization_uuid: f.org, qr_code_uuid: f.qrCode, status: 'CHECK_IN' } }),
  },
  'GET /api/service-confirmations': { scope: 'org', call: (f) => ({ path: `/api/service-confirmations?organization_uuid=${f.org}` }) },
  'POST /api/service-confirmations/simulate': {
    scope: 'org',
    call: (f) => ({
      path: '/api/service-confirmations/simulate',
      body: { organization_uuid: f.org, event: 'service_confirmation.check_in' },
    }),
  },
  'GET /api/service-confirmations/uuid/{uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/service-confirmations/uuid/${f.confirmation}` }),
  },
  'GET /api/settings': { scope: 'machine', call: () => ({ path: '/api/settings' }) },
  'PATCH /api/settings': { scope: 'machine', call: () => ({ path: '/api/settings', body: { webhook_retry_schedule: 'fast' } }) },
  'POST /api/tools/decrypt': {
    scope: 'own',
    call: () => ({ path: '/api/tools/decrypt', body: { payload: 'abc', signature: 'sha256=00' } }),
    viewerMayWrite: 'decrypting a pasted payload reads and stores nothing',
  },
  'GET /api/geocoder': { scope: 'own', call: () => ({ path: '/api/geocoder' }) },
  'POST /api/geocoder/locate': {
    scope: 'own',
    call: () => ({ path: '/api/geocoder/locate', body: { location: '1 High Street, Carlton VIC 3053' } }),
    viewerMayWrite: 'locating an address reads and stores nothing',
  },
  'POST /inbox/{uuid}': { scope: 'public', call: (f) => ({ path: `/inbox/${f.inbox}` }) },
  'PUT /inbox/{uuid}': { scope: 'public', call: (f) => ({ path: `/inbox/${f.inbox}` }) },
  'PATCH /inbox/{uuid}': { scope: 'public', call: (f) => ({ path: `/inbox/${f.inbox}` }) },
  'DELETE /inbox/{uuid}': { scope: 'public', call: (f) => ({ path: `/inbox/${f.inbox}` }) },
  'GET /inbox/{uuid}': { scope: 'public', call: (f) => ({ path: `/inbox/${f.inbox}` }) },
  'POST /api/inboxes': { scope: 'org', call: (f) => ({ path: '/api/inboxes', body: { organization_uuid: f.org, name: 'table' } }) },
  'GET /api/inboxes': { scope: 'org', call: (f) => ({ path: `/api/inboxes?organization_uuid=${f.org}` }) },
  'GET /api/inboxes/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}` }) },
  'PATCH /api/inboxes/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}`, body: { name: 'taken over' } }) },
  'DELETE /api/inboxes/uuid/{uuid}': { scope: 'org', call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}` }) },
  'GET /api/inboxes/uuid/{uuid}/messages': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages?organization_uuid=${f.org}` }),
  },
  'DELETE /api/inboxes/uuid/{uuid}/messages': { scope: 'org', call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages` }) },
  'POST /api/inboxes/uuid/{uuid}/reverify': { scope: 'org', call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/reverify` }) },
  'GET /api/inboxes/uuid/{uuid}/messages/{message_uuid}': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/${f.message}` }),
  },
  'GET /api/inboxes/uuid/{uuid}/messages/{message_uuid}/body': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/${f.message}/body` }),
  },
  'POST /api/inboxes/uuid/{uuid}/messages/{message_uuid}/replay': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/messages/${f.message}/replay`, body: { url: 'http://127.0.0.1:9/x' } }),
  },
  'GET /api/inboxes/uuid/{uuid}/export': {
    scope: 'org',
    call: (f) => ({ path: `/api/inboxes/uuid/${f.inbox}/export?organization_uuid=${f.org}` }),
  },
  'POST /api/demo/reset': { scope: 'org', call: (f) => ({ path: '/api/demo/reset', body: { organization_uuid: f.org } }) },
  // Snapshots act on the caller's own organization; another organization's key sees and changes only its own.
  'GET /api/snapshots': { scope: 'own', call: () => ({ path: '/api/snapshots' }) },
  'POST /api/snapshots': { scope: 'own', call: () => ({ path: '/api/snapshots', body: { name: 'table' } }) },
  'POST /api/snapshots/{name}/restore': { scope: 'own', call: () => ({ path: '/api/snapshots/table/restore', body: {} }) },
  'DELETE /api/snapshots/{name}': { scope: 'own', call: () => ({ path: '/api/snapshots/table' }) },
  'POST /api/reset': { scope: 'own', call: () => ({ path: '/api/reset', body: { empty: true } }) },
  'GET /api/health': { scope: 'public', call: () => ({ path: '/api/health' }) },
  'GET /api/openapi.json': { scope: 'public', call: () => ({ path: '/api/openapi.json' }) },
  'GET /api/docs': { scope: 'public', call: () => ({ path: '/api/docs' }) },
};

const SECRET_BODY = 'top secret payload of organization A';

describe("every route with another organization's key and with a viewer key", () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fixtures: Fixtures;
  let otherAuth: string;
  let viewerAuth: string;
  let operations: string[];

  const send = (auth: string, method: string, call: Call): Promise<Response> => {
    const init: RequestInit = call.form ? call.form() : call.body !== undefined ? jsonBody(call.body, method) : {};
    return server.request(call.path, {
      ...init,
      method,
      headers: { ...(init.headers as Record<string, string> | undefined), authorization: auth },
    });
  };

  before(async () => {
    server = await startImportTestServer();
    receiver = await startReceiver();
    const org = server.organizationUuid;
    const json = async (res: Response) => {
      const text = await res.text();
      assert.ok(res.status < 300, `fixture setup failed: ${res.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const qr = await json(
      await server.request('/api/qrcodes', jsonBody({ organization_uuid: org, location: '1 High Street, Carlton VIC 3053' })),
    );
    const webhook = await json(
      await server.request(
        '/api/webhooks/register',
        jsonBody({ organization_uuid: org, url: `${receiver.url}/hook`, events: ['service_confirmation.check_in'] }),
      ),
    );
    const confirmation = await json(
      await server.request(
        '/api/service-confirmations',
        jsonBody({ organization_uuid: org, qr_code_uuid: String(qr.uuid), status: 'CHECK_IN' }),
      ),
    );
    let delivery = '';
    for (let i = 0; i < 200 && !delivery; i++) {
      const page = await json(await server.request(`/api/webhooks/uuid/${String(webhook.uuid)}/deliveries?organization_uuid=${org}`));
      delivery = String((page.items as { delivery_id: string }[])[0]?.delivery_id ?? '');
      if (!delivery) await new Promise((r) => setTimeout(r, 50));
    }
    const inbox = await json(await server.request('/api/inboxes', jsonBody({ organization_uuid: org, name: 'A inbox' })));
    const message = await deliver(String(inbox.url), SECRET_BODY, { 'content-type': 'text/plain' });
    const importRes = await server.request(
      '/api/qrcodes/bulk-import',
      fileUpload('location\r\n"Nowhere at all"\r\n', 'bad.csv', { organization_uuid: org }),
    );
    await json(importRes);
    const viewer = await json(await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'viewer' })));
    const service = await json(
      await server.request('/api/services', jsonBody({ organization_uuid: org, name: 'Fixture service', code: 'FIX' })),
    );
    const handler = await json(
      await server.request(
        '/api/import-handlers',
        jsonBody({ organization_uuid: org, name: 'Fixture handler', mapping: { 'Job Ref': 'job_reference_id' } }),
      ),
    );
    const appointments = await json(
      await server.request(
        '/api/appointment_schedule/bulk',
        jsonBody([
          {
            organization_uuid: org,
            tag_name: 'Site',
            tag_number: 'T-1',
            start_date_time: 'not a date',
            location: '1 High Street, Carlton VIC 3053',
            service: 'Fixture service',
          },
        ]),
      ),
    );
    const draft = (await (
      await server.request('/api/import-drafts', jsonBody({ kind: 'qrcodes', rows: [{ values: { location: 'Nowhere at all' } }] }))
    ).json()) as { uuid: string };
    const draftRows = (await (await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows`)).json()) as { rows: { row_id: number }[] };
    fixtures = {
      org,
      draft: draft.uuid,
      draftRow: draftRows.rows[0]?.row_id ?? 0,
      qrCode: String(qr.uuid),
      webhook: String(webhook.uuid),
      delivery,
      confirmation: String(confirmation.uuid),
      inbox: String(inbox.uuid),
      message: message.messageUuid,
      task: importRes.headers.get('x-background-task-uuid') ?? '',
      viewerKey: String(viewer.api_key),
      service: String(service.uuid),
      handler: String(handler.uuid),
      appointmentTask: String(appointments.background_task_uuid),
    };
    for (const [name, value] of Object.entries(fixtures)) assert.ok(value && value !== 'undefined', `fixture ${name} missing`);
    viewerAuth = bearer(viewer as { api_key: string; api_secret: string });
    otherAuth = bearer(await createOrganization(server.ctx.db.kysely, { name: 'Other Org' }));
    const doc = (await (await server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it('every route of the OpenAPI document has a row in the table', () => {
    assert.ok(operations.length > 40, `only ${operations.length} operations`);
    const missing = operations.filter((op) => !ROUTES[op]);
    assert.deepEqual(missing, [], `Add these routes to ROUTES in test/hardening/route-access.test.ts: ${missing.join(', ')}`);
  });

  it("another organization's key gets 403 or 404 on organization A's data, never the data", async () => {
    const leaks: string[] = [];
    const marks = () => [
      fixtures.qrCode,
      fixtures.webhook,
      fixtures.delivery,
      fixtures.confirmation,
      fixtures.inbox,
      fixtures.message,
      fixtures.task,
      fixtures.viewerKey,
      SECRET_BODY,
    ];
    for (const op of operations) {
      const row = ROUTES[op];
      if (!row || row.scope === 'public') continue;
      const method = op.split(' ')[0] ?? 'GET';
      const res = await send(otherAuth, method, row.call(fixtures));
      const text = await res.text();
      assert.ok(res.status < 500, `${op}: ${res.status} ${text.slice(0, 300)}`);
      if (row.scope === 'org' && res.status !== 403 && res.status !== 404)
        leaks.push(`${op} answered ${res.status}: ${text.slice(0, 200)}`);
      const seen = marks().filter((mark) => text.includes(mark));
      if (seen.length > 0 && row.scope !== 'org') leaks.push(`${op} showed A's ${seen.join(', ')}`);
      if (seen.length > 0 && row.scope === 'org' && !(res.status === 404 || res.status === 403))
        leaks.push(`${op} showed A's ${seen.join(', ')}`);
    }
    assert.deepEqual(leaks, []);
    // Nothing of A changed.
    assert.equal((await server.request(`/api/qrcodes/uuid/${fixtures.qrCode}`)).status, 200);
    assert.equal((await server.request(`/api/webhooks/uuid/${fixtures.webhook}`)).status, 200);
    assert.equal((await server.request(`/api/inboxes/uuid/${fixtures.inbox}`)).status, 200);
  });

  it('a viewer key gets 403 on every write', async () => {
    const allowed: string[] = [];
    for (const op of operations) {
      const row = ROUTES[op];
      const method = op.split(' ')[0] ?? 'GET';
      if (!row || row.scope === 'public' || method === 'GET' || row.viewerMayWrite) continue;
      const res = await send(viewerAuth, method, row.call(fixtures));
      const text = await res.text();
      if (res.status !== 403) allowed.push(`${op} answered ${res.status}: ${text.slice(0, 200)}`);
      else assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'FORBIDDEN');
    }
    assert.deepEqual(allowed, []);
    assert.equal((await server.request(`/api/qrcodes/uuid/${fixtures.qrCode}`)).status, 200);
  });
});
