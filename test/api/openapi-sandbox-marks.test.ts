/**
 * The OpenAPI document says what is the sandbox's own (x-sandbox: true) and what the service has:
 * the service's operations as its reference lists them (written out here, not read from the code
 * under test), and a sample of the sandbox's fields, parameters and headers on those operations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deref, type Json } from '../support/openapi-doc.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The endpoints of the service's reference: background tasks, appointment import, QR codes, webhooks. */
const SERVICE = [
  'GET /api/background-tasks/uuid/{background_task_uuid}',
  'GET /api/background-tasks',
  'POST /api/appointment_schedule/bulk',
  'GET /api/appointment_schedule/bulk/template',
  'GET /api/appointment_schedule/bulk/errors/{background_task_uuid}',
  'GET /api/qrcodes',
  'GET /api/qrcodes/uuid/{uuid}',
  'POST /api/qrcodes',
  'PATCH /api/qrcodes/uuid/{uuid}',
  'DELETE /api/qrcodes/uuid/{uuid}',
  'POST /api/qrcodes/bulk-import',
  'POST /api/qrcodes/bulk',
  'GET /api/qrcodes/bulk/{background_task_uuid}/errors',
  'POST /api/webhooks/register',
  'GET /api/webhooks',
  'GET /api/webhooks/uuid/{uuid}',
  'PATCH /api/webhooks/uuid/{uuid}',
  'DELETE /api/webhooks/uuid/{uuid}',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('OpenAPI: x-sandbox marks what the service does not have', () => {
  let server: TestServer;
  let doc: Json;
  before(async () => {
    server = await startTestServer();
    doc = (await (await server.request('/api/openapi.json')).json()) as Json;
  });
  after(() => server.stop());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ name: `${m.toUpperCase()} ${path}`, op: item[m] as Json })),
    );
  const operation = (name: string) => {
    const found = operations().find((o) => o.name === name);
    assert.ok(found, name);
    return found.op;
  };
  const property = (schema: unknown, name: string): Json => {
    const resolved = deref(doc, schema);
    const members = ((resolved.oneOf ?? resolved.anyOf) as unknown[] | undefined)?.map((m) => deref(doc, m)) ?? [resolved];
    const found = members.map((m) => (m.properties as Record<string, Json> | undefined)?.[name]).find(Boolean);
    assert.ok(found, `property ${name}`);
    return found;
  };

  it('every operation the service does not have is marked, and none of the service operations is', () => {
    const all = operations();
    for (const name of SERVICE)
      assert.ok(
        all.some((o) => o.name === name),
        `the service operation ${name} exists`,
      );
    const unmarked = all.filter((o) => o.op['x-sandbox'] !== true).map((o) => o.name);
    assert.deepEqual(unmarked.sort(), [...SERVICE].sort());
    for (const name of ['POST /api/imports/preview', 'POST /api/inboxes', 'POST /api/tools/decrypt', 'GET /api/live', 'GET /api/settings'])
      assert.equal(operation(name)['x-sandbox'], true, name);
  });

  it("the sandbox's fields and parameters of the service operations are marked; the service's are not", () => {
    const bulk = operation('POST /api/qrcodes/bulk');
    const params = bulk.parameters as Json[];
    assert.equal(params.find((p) => p.name === 'dry_run')?.['x-sandbox'], true);
    assert.equal(params.find((p) => p.name === 'processing_mode')?.['x-sandbox'], undefined);
    const form = deref(doc, ((bulk.requestBody as Json).content as Record<string, Json>)['multipart/form-data']?.schema);
    const formFields = form.properties as Record<string, Json>;
    for (const name of ['dry_run', 'fixes_task_uuid', 'sheet', 'header_row', 'mapping', 'date_order'])
      assert.equal(formFields[name]?.['x-sandbox'], true, `form field ${name}`);
    for (const name of ['file', 'organization_uuid', 'processing_mode']) assert.equal(formFields[name]?.['x-sandbox'], undefined, name);

    const jsonAnswer = (op: Json, status: string) =>
      (((op.responses as Record<string, Json>)[status]?.content ?? {}) as Record<string, Json>)['application/json']?.schema;
    const task = jsonAnswer(operation('GET /api/background-tasks/uuid/{background_task_uuid}'), '200');
    const results = property(task, 'results');
    const fileResults = deref(doc, ((results.anyOf ?? results.oneOf) as unknown[] | undefined)?.[0] ?? results);
    for (const name of ['warnings', 'encoding']) assert.equal(property(fileResults, name)['x-sandbox'], true, `results.${name}`);
    assert.equal(property(task, 'status')['x-sandbox'], undefined, 'the task status is the service field');
    const taskList = operation('GET /api/background-tasks').parameters as Json[];
    assert.equal(taskList.find((p) => p.name === 'search')?.['x-sandbox'], true);
    assert.equal(taskList.find((p) => p.name === 'task_type')?.['x-sandbox'], undefined);

    const webhook = deref(doc, (doc.components as { schemas: Json }).schemas.Webhook);
    for (const name of ['sandbox_diagnostics', 'retry_schedule', 'failing_since', 'disabled_reason', 'disabled_on'])
      assert.equal(property(webhook, name)['x-sandbox'], true, `Webhook.${name}`);
    for (const name of ['uuid', 'url', 'events', 'is_active']) assert.equal(property(webhook, name)['x-sandbox'], undefined, name);
  });

  it("marks the sandbox's import features on every file import, in its answers and in its task results", () => {
    const SANDBOX_FORM = ['dry_run', 'fixes_task_uuid', 'sheet', 'header_row', 'mapping', 'date_order'];
    for (const name of ['POST /api/qrcodes/bulk', 'POST /api/qrcodes/bulk-import', 'POST /api/appointment_schedule/bulk']) {
      const op = operation(name);
      assert.equal((op.parameters as Json[]).find((p) => p.name === 'dry_run')?.['x-sandbox'], true, `${name} ?dry_run`);
      const form = deref(doc, ((op.requestBody as Json).content as Record<string, Json>)['multipart/form-data']?.schema);
      const fields = form.properties as Record<string, Json>;
      for (const field of SANDBOX_FORM) assert.equal(fields[field]?.['x-sandbox'], true, `${name} form field ${field}`);
      for (const field of ['file', 'organization_uuid']) assert.equal(fields[field]?.['x-sandbox'], undefined, `${name} ${field}`);
    }
    const appointments = operation('POST /api/appointment_schedule/bulk');
    assert.equal(
      (appointments.parameters as Json[]).find((p) => p.name === 'org_identifier')?.['x-sandbox'],
      undefined,
      'the service names org_identifier',
    );

    /** Every property of a schema, through refs, unions and arrays, as path -> whether marked. */
    const walk = (schema: unknown, at = '', seen = new Set<unknown>()): Map<string, boolean> => {
      const found = new Map<string, boolean>();
      const resolved = deref(doc, schema);
      if (seen.has(resolved)) return found;
      seen.add(resolved);
      for (const key of ['oneOf', 'anyOf', 'allOf'])
        for (const member of (resolved[key] as unknown[] | undefined) ?? []) for (const [k, v] of walk(member, at, seen)) found.set(k, v);
      if (resolved.items) for (const [k, v] of walk(resolved.items, `${at.replace(/\.$/, '')}[].`, seen)) found.set(k, v);
      for (const [name, property] of Object.entries((resolved.properties as Record<string, Json> | undefined) ?? {})) {
        const marked = property['x-sandbox'] === true || deref(doc, property)['x-sandbox'] === true;
        const path = `${at}${name}`;
        found.set(path, (found.get(path) ?? true) && marked);
        for (const [k, v] of walk(property, `${path}.`, seen)) found.set(k, v);
      }
      return found;
    };
    const answer = (name: string, status: string) =>
      walk(
        (((operation(name).responses as Record<string, Json>)[status]?.content ?? {}) as Record<string, Json>)['application/json']?.schema,
      );
    const marked = (fields: Map<string, boolean>, name: string) => {
      const matching = [...fields].filter(([path]) => path === name || path.endsWith(`.${name}`));
      assert.ok(matching.length > 0, `${name} is in the answer`);
      for (const [path, isMarked] of matching) assert.equal(isMarked, true, `${path} is marked x-sandbox`);
    };
    const task = answer('GET /api/background-tasks/uuid/{background_task_uuid}', '200');
    const qrSync = answer('POST /api/qrcodes/bulk', '200');
    const appointmentSync = answer('POST /api/appointment_schedule/bulk', '200');
    for (const fields of [task, qrSync, appointmentSync])
      for (const name of ['warnings', 'warned', 'encoding', 'row_number']) marked(fields, name);
    for (const fields of [qrSync, appointmentSync]) for (const name of ['dry_run', 'dry_run_notes']) marked(fields, name);
    for (const fields of [task, appointmentSync]) marked(fields, 'date_orders');
    for (const name of ['uuid', 'service_uuid', 'timezone_name', 'location', 'notes', 'created_on', 'updated_on'])
      assert.equal(appointmentSync.get(`appointment_schedules_upserted[].${name}`), true, `a schedule's ${name}`);
    for (const name of ['organization_uuid', 'qr_code_uuid', 'service', 'start_date_time', 'end_date_time', 'duration', 'type'])
      assert.equal(appointmentSync.get(`appointment_schedules_upserted[].${name}`), false, `a schedule's ${name} is the service's`);
    for (const name of ['index', 'error_message']) assert.equal(appointmentSync.get(`excluded_appointments[].${name}`), false, name);

    for (const name of [
      'POST /api/imports/preview',
      'POST /api/background-tasks/uuid/{background_task_uuid}/cancel',
      'POST /api/background-tasks/uuid/{background_task_uuid}/retry',
      'POST /api/import-drafts',
      'POST /api/snapshots',
      'POST /api/snapshots/{name}/restore',
      'POST /api/reset',
    ])
      assert.equal(operation(name)['x-sandbox'], true, name);
    const taskList = operation('GET /api/background-tasks').parameters as Json[];
    for (const name of ['status', 'search', 'cancelled']) assert.equal(taskList.find((p) => p.name === name)?.['x-sandbox'], true, name);
  });

  it('the delivery: X-Service-Signature required and unmarked; the X-Sandbox-* headers optional and marked', () => {
    const delivery = ((doc.webhooks as Record<string, Json>).serviceConfirmationEvent as Json).post as Json;
    const headers = delivery.parameters as Json[];
    const signature = headers.find((h) => h.name === 'X-Service-Signature');
    assert.equal(signature?.required, true);
    assert.equal(signature?.['x-sandbox'], undefined);
    const sandbox = headers.filter((h) => h.name !== 'X-Service-Signature');
    assert.deepEqual(
      sandbox.map((h) => [h.name, h.required, h['x-sandbox']]),
      [
        ['X-Sandbox-Event', false, true],
        ['X-Sandbox-Delivery-Id', false, true],
        ['X-Sandbox-Attempt', false, true],
      ],
    );
  });
});
