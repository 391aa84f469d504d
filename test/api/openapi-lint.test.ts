import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { taskTypes } from '../../server/tasks/schemas.ts';
import { allRefs, deref, operations, resolvePointer, type Json } from '../support/openapi-doc.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** Warnings docs/api.md explains (section "The OpenAPI document"); a new one must be fixed or explained there. */
const EXPLAINED_WARNINGS = 0;

describe('OpenAPI document as tools read it', () => {
  let server: TestServer;
  let doc: Json;
  let file: string;
  before(async () => {
    server = await startTestServer();
    doc = (await (await server.request('/api/openapi.json')).json()) as Json;
    file = path.join(tempDataDir('qr-sandbox-openapi-'), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc, null, 1));
  });
  after(async () => {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    await server.stop();
  });

  it('passes redocly lint (recommended rules) with no errors, offline', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        path.join(root, 'tools/redocly.yaml'),
        '--format=json',
        file,
      ],
      // No telemetry, no update check: the lint runs without network.
      {
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const listed = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`).join('\n');
    assert.equal(report.totals.errors, 0, listed);
    assert.ok(report.totals.warnings <= EXPLAINED_WARNINGS, listed);
  });

  it('every $ref resolves, and no schema keeps $defs of its own', () => {
    const refs = allRefs(doc);
    assert.ok(refs.length > 100, `${refs.length} refs`);
    for (const { at, ref } of refs) assert.ok(resolvePointer(doc, ref) !== undefined, `${ref} at ${at}`);
    assert.doesNotMatch(JSON.stringify(doc), /"\$defs"|"\$schema"|~anonymous|~input/);
  });

  it('names the shapes once in components/schemas, under readable names', () => {
    const schemas = (doc.components as Json).schemas as Json;
    for (const name of [
      'QrCode',
      'AppointmentSchedule',
      'BackgroundTask',
      'ErrorResponse',
      'Webhook',
      'ServiceConfirmation',
      'EventEnvelope',
      'InboxMessage',
      'TaskAccepted',
    ]) {
      assert.ok(schemas[name], name);
    }
    for (const name of Object.keys(schemas)) assert.match(name, /^[A-Z][A-Za-z0-9]+$/, name);
    const qrCode = JSON.stringify(schemas.QrCode);
    const inlineCopies = operations(doc).filter(({ op }) => JSON.stringify(op).includes(qrCode.slice(0, 120)));
    assert.deepEqual(inlineCopies, [], 'QrCode is referenced, not copied');
  });

  it('types task results per task kind: a union on task_type with a variant for every kind', () => {
    const task = deref(doc, { $ref: '#/components/schemas/BackgroundTask' });
    const mapping = (task.discriminator as { propertyName: string; mapping: Record<string, string> }).mapping;
    assert.equal((task.discriminator as Json).propertyName, 'task_type');
    assert.deepEqual(Object.keys(mapping).sort(), [...taskTypes].sort());
    for (const [type, ref] of Object.entries(mapping)) {
      const variant = deref(doc, { $ref: ref });
      assert.deepEqual((variant.properties as Json).task_type, { type: 'string', const: type });
      const results = deref(doc, ((variant.properties as Json).results as { anyOf: Json[] }).anyOf[0]);
      assert.equal(results.additionalProperties, false, `${type} results are closed`);
      assert.ok((results.properties as Json).encoding, `${type} results may say the encoding`);
    }
    const envelope = deref(doc, { $ref: '#/components/schemas/EventEnvelope' });
    assert.equal((envelope.discriminator as Json).propertyName, 'type');
  });

  it('gives every operation a unique operationId, a summary, parameters, and its error answers in the one error shape', () => {
    const ids = new Set<string>();
    for (const { path: p, method, op } of operations(doc)) {
      const label = `${method} ${p}`;
      assert.match(String(op.operationId), /^[a-z][A-Za-z0-9]+$/, label);
      assert.ok(!ids.has(String(op.operationId)), `duplicate operationId ${op.operationId}`);
      ids.add(String(op.operationId));
      assert.ok(String(op.summary ?? '').length > 5, label);
      const pathParams = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = ((op.parameters as Json[] | undefined) ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      assert.deepEqual(declared, pathParams, label);
      const responses = op.responses as Json;
      assert.ok(responses['500'] ?? p.startsWith('/inbox/'), `${label} documents 500`);
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45]/.test(status) || p.startsWith('/inbox/') || p.startsWith('/api/remote/')) continue;
        const schema = (deref(doc, response).content as Json)['application/json'] as Json;
        assert.deepEqual(schema.schema, { $ref: '#/components/schemas/ErrorResponse' }, `${label} ${status}`);
      }
      if (op.security && (op.security as unknown[]).length > 0)
        for (const s of ['401', '403', '429']) assert.ok(responses[s], `${label} ${s}`);
      const body = op.requestBody as Json | undefined;
      if (body && !p.startsWith('/inbox/') && !p.startsWith('/api/remote/')) {
        for (const s of ['400', '413', '415']) assert.ok(responses[s], `${label} ${s}`);
      }
      const form = (body?.content as Json | undefined)?.['multipart/form-data'] as Json | undefined;
      if (form) {
        const file = ((form.schema as Json).properties as Json).file as Json;
        assert.deepEqual({ type: file.type, format: file.format }, { type: 'string', format: 'binary' }, `${label} has its file field`);
      }
    }
    assert.ok(ids.size >= 70, `${ids.size} operations`);
  });
});
