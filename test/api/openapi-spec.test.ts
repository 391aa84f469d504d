import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deref, propertyNames, responseSchema, type Json } from '../support/openapi-doc.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The service's own API description (../shared/spec/service-api.md) against our document: every
 * path and method it names is documented under the same templated path, with the status codes
 * and field names the spec gives.
 */
function findSpec(): string | null {
  // The repository sits next to shared/ (../shared from its root), or a worktree of it one level further down.
  for (let dir = path.resolve(import.meta.dirname, '../..'); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/spec/service-api.md');
    if (fs.existsSync(candidate)) return fs.readFileSync(candidate, 'utf8');
  }
  return null;
}
const spec = findSpec();

/** The lines of a section, from its heading to the next heading of the same or a higher level. */
function section(heading: string): string[] {
  const lines = spec!.split('\n');
  const start = lines.findIndex((line) => line.startsWith('#') && line.includes(heading));
  assert.ok(start >= 0, `section ${heading}`);
  const level = lines[start]!.match(/^#+/)![0].length;
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.match(/^#+/)![0].length <= level);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The first cell of every row of the n-th table of a section, split where a cell names several fields. */
function firstColumn(heading: string, table = 0): string[] {
  const rows: string[][] = [];
  let current: string[] = [];
  for (const line of section(heading)) {
    if (line.startsWith('|')) current.push(line);
    else if (current.length) {
      rows.push(current);
      current = [];
    }
  }
  if (current.length) rows.push(current);
  const lines = rows[table];
  assert.ok(lines, `table ${table} of ${heading}`);
  return lines
    .slice(2)
    .map((line) => line.split('|')[1]!.trim())
    .flatMap((cell) => cell.split(/,\s*/))
    .filter(Boolean);
}

const METHODS = 'GET|POST|PUT|PATCH|DELETE';

describe('OpenAPI document keeps the service spec (service-api.md)', {
  skip: spec === null && 'the shared spec is not on this machine',
}, () => {
  let server: TestServer;
  let doc: Json;
  const op = (method: string, p: string) =>
    ((doc.paths as Record<string, Json>)[p]?.[method.toLowerCase()] as Json | undefined) ?? assert.fail(`${method} ${p} is not documented`);
  const schema = (name: string) => deref(doc, { $ref: `#/components/schemas/${name}` });
  const hasFields = (what: string, node: unknown, fields: string[]) => {
    const names = propertyNames(doc, node);
    for (const field of fields) assert.ok(names.has(field), `${what} has ${field} (has ${[...names].join(', ')})`);
  };

  before(async () => {
    server = await startTestServer();
    doc = (await (await server.request('/api/openapi.json')).json()) as Json;
  });
  after(() => server.stop());

  it('documents every path and method of the spec under the same templated path', () => {
    const named = new Set<string>();
    for (const match of spec!.matchAll(new RegExp(`^### [\\d.]+ (${METHODS}) (/api/\\S+)`, 'gm'))) named.add(`${match[1]} ${match[2]}`);
    for (const match of spec!.matchAll(new RegExp(`^\\| (${METHODS}) \\| (/api/\\S+) \\|`, 'gm'))) named.add(`${match[1]} ${match[2]}`);
    for (const match of spec!.matchAll(new RegExp(`^\\| (${METHODS}) (/api/\\S+) \\|`, 'gm'))) named.add(`${match[1]} ${match[2]}`);
    assert.ok(named.size >= 18, `${named.size} endpoints in the spec`);
    for (const endpoint of named) {
      const [method, p] = endpoint.split(' ') as [string, string];
      op(method, p);
    }
  });

  it('documents the status codes the spec gives', () => {
    // Part 7's table: an endpoint, then its statuses on the rows below it.
    let endpoint: string | null = null;
    const expected = new Map<string, string[]>();
    for (const line of section('7. Errors')
      .filter((l) => l.startsWith('|'))
      .slice(2)) {
      const [, first, status] = line.split('|').map((c) => c.trim());
      if (first) endpoint = first;
      if (endpoint && status) expected.set(endpoint, [...(expected.get(endpoint) ?? []), status]);
    }
    assert.ok(expected.size >= 2);
    for (const [endpoint, statuses] of expected) {
      const [method, p] = endpoint.split(' ') as [string, string];
      const responses = op(method, p).responses as Json;
      for (const status of statuses) assert.ok(responses[status], `${endpoint} documents ${status}`);
    }
    assert.ok((op('POST', '/api/qrcodes/bulk').responses as Json)['202'], '4.8: 202');
    for (const p of ['/api/background-tasks/uuid/{background_task_uuid}', '/api/background-tasks']) {
      for (const status of ['200', '401', '403']) assert.ok((op('GET', p).responses as Json)[status], `GET ${p} ${status}`);
    }
  });

  it('uses the field names of the spec', () => {
    const taskFields = firstColumn('2.1 Background task');
    hasFields('BackgroundTask (every kind)', schema('BackgroundTask'), taskFields);
    const results = firstColumn('2.1 Background task', 1);
    assert.ok(results.length === 2);
    hasFields('IMPORT results', schema('QrCodeJsonImportResults'), [
      'qr_code_inserted',
      'qr_code_restored',
      'qr_code_tags_created',
      'excluded_qr_codes',
    ]);
    hasFields('QR_IMPORT results', schema('QrCodeFileImportResults'), ['inserted', 'excluded', 'excluded_data']);
    const excluded = (schema('QrCodeFileImportResults').properties as Json).excluded_data;
    hasFields('excluded_data element', excluded, ['index', 'error', 'row']);
    hasFields('excluded row', (deref(doc, deref(doc, excluded).items as Json).properties as Json).row, [
      'location',
      'address_line_1',
      'suburb',
      'state',
      'postcode',
      'country',
    ]);

    hasFields('task page (2.2)', responseSchema(doc, op('GET', '/api/background-tasks'), 200), firstColumn('2.2 Page of background tasks'));
    hasFields('appointment import record (2.3)', schema('AppointmentImportRecord'), firstColumn('2.3 Appointment import record'));
    hasFields('appointment sync answer (2.4)', schema('AppointmentImportResult'), firstColumn('2.4 Appointment import result'));
    hasFields('appointment schedule (2.4)', schema('AppointmentSchedule'), firstColumn('2.4 Appointment import result', 1));
    hasFields('excluded appointment (2.4)', (schema('AppointmentImportResult').properties as Json).excluded_appointments, [
      'index',
      'data',
      'error_message',
    ]);
    hasFields('QR code import record (2.5)', schema('QrCodeImportRecord'), firstColumn('2.5 QR code address bulk import record'));
    hasFields(
      'webhook registration answer (2.7)',
      responseSchema(doc, op('POST', '/api/webhooks/register'), 201),
      firstColumn('2.7 Webhook'),
    );
    hasFields('service confirmation (2.8)', schema('ServiceConfirmation'), firstColumn('2.8 Service confirmation'));
    hasFields('event envelope (6.3), every event', schema('EventEnvelope'), firstColumn('6.3 Plaintext envelope'));

    const parameters = (method: string, p: string) => ((op(method, p).parameters as Json[] | undefined) ?? []).map((x) => String(x.name));
    for (const name of firstColumn('4.2 GET /api/background-tasks'))
      assert.ok(parameters('GET', '/api/background-tasks').includes(name), `4.2 ${name}`);
    for (const name of firstColumn('4.5 GET /api/appointment_schedule/bulk/errors')) {
      assert.ok(parameters('GET', '/api/appointment_schedule/bulk/errors/{background_task_uuid}').includes(name), `4.5 ${name}`);
    }
    const bulk = op('POST', '/api/appointment_schedule/bulk').requestBody as Json;
    hasFields(
      '4.3 file form',
      ((bulk.content as Json)['multipart/form-data'] as Json).schema,
      firstColumn('4.3 POST /api/appointment_schedule/bulk', 1),
    );
    hasFields('4.3 202 answer', responseSchema(doc, op('POST', '/api/appointment_schedule/bulk'), 202), [
      'message',
      'task_id',
      'background_task_uuid',
    ]);
    hasFields('4.8 202 answer', responseSchema(doc, op('POST', '/api/qrcodes/bulk'), 202), ['task_id', 'background_task_uuid', 'status']);
    const register = op('POST', '/api/webhooks/register').requestBody as Json;
    hasFields(
      '4.10 registration body',
      ((register.content as Json)['application/json'] as Json).schema,
      firstColumn('4.10 Webhook endpoints', 1),
    );
    hasFields('6.2 delivery body', schema('WebhookDeliveryBody'), ['payload']);
  });
});
