import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Express } from 'express';
import { startTestServer, type TestServer } from '../support/server.ts';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every method+path the express app really serves under /api (and the public /inbox/ receiver), found by walking its router. */
function servedApiRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          if (layer.route.path.startsWith('/api') || layer.route.path.startsWith('/inbox/'))
            found.push(`${method} ${layer.route.path.replace(/\*(\w+)$/, ':$1')}`);
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found.sort();
}

describe('OpenAPI document and reference page', () => {
  let server: TestServer;
  let doc: { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[] }>> };
  before(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as typeof doc;
  });
  after(() => server.stop());

  it('is OpenAPI 3.1 and lists every route the server serves under /api', () => {
    assert.equal(doc.openapi, '3.1.0');
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path.replace(/\{(\w+)\}/g, ':$1')}`))
      .sort();
    const served = servedApiRoutes(server.app);
    assert.ok(served.length >= 9, `found ${served.length} routes`);
    assert.deepEqual(documented, served);
  });

  it('covers the foundation routes with their error responses', () => {
    for (const [path, method] of [
      ['/api/background-tasks', 'get'],
      ['/api/background-tasks/uuid/{background_task_uuid}', 'get'],
      ['/api/api-keys', 'post'],
      ['/api/api-keys', 'get'],
      ['/api/api-keys/{api_key}', 'delete'],
      ['/api/live', 'get'],
      ['/api/live/tokens', 'post'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.ok(op.responses['500'], `${method} ${path} documents 500`);
    }
    const get = doc.paths['/api/background-tasks/uuid/{background_task_uuid}']?.get;
    assert.ok(get?.responses['401'] && get.responses['404']);
    assert.deepEqual(get?.security, [{ bearer: [] }]);
  });

  it('every documented path exists (no 404 without credentials)', async () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace(/\{\w+\}/g, 'example');
        const res = await fetch(`${server.url}${concrete}`, { method: method.toUpperCase() });
        const text = await res.text();
        if (res.status === 404 && !path.startsWith('/api/')) {
          // A public route outside /api (the inbox receiver) may answer 404 for an unknown record, as JSON from the route itself.
          assert.match(text, /"code":"NOT_FOUND"/, `${method} ${path}`);
          assert.doesNotMatch(text, /No API route|Cannot /, `${method} ${path}`);
          continue;
        }
        assert.notEqual(res.status, 404, `${method} ${path}`);
      }
    }
  });

  it('serves a readable reference page that needs no network', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.match(html, /\/api\/background-tasks\/uuid\/\{background_task_uuid\}/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="http/, 'no external scripts or styles');
  });
});
