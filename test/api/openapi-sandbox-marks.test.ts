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
