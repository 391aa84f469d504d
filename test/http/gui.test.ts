import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { GUI_CONTENT_SECURITY_POLICY, registerGuiRoutes } from '../../server/http/gui.ts';
import { tempDataDir } from '../support/server.ts';

async function serve(guiDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/api/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  registerGuiRoutes(app, guiDir);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A GUI server for a describe's tests, serving the folder `guiDir` makes in a temp folder; closed and removed after them. */
function guiServer(prefix: string, guiDir: (dir: string) => string): { url: string } {
  const dir = tempDataDir(prefix);
  const served = { url: '' };
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  before(async () => {
    server = await serve(guiDir(dir));
    served.url = server.url;
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return served;
}

const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

describe('GUI serving with a build', () => {
  const server = guiServer('qr-sandbox-gui-', (dir) => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><title>QR Sandbox</title><script type="module" src="/assets/app.js"></script>',
    );
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app")');
    fs.writeFileSync(path.join(dir, '.build-stamp'), 'x');
    return dir;
  });

  test('/ answers the built page with a strict Content-Security-Policy and no caching', async () => {
    const res = await fetch(`${server.url}/`, html);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(res.headers.get('content-security-policy'), GUI_CONTENT_SECURITY_POLICY);
    assert.match(GUI_CONTENT_SECURITY_POLICY, /default-src 'self'/);
    assert.doesNotMatch(GUI_CONTENT_SECURITY_POLICY, /unsafe-inline/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(await res.text(), /<title>QR Sandbox<\/title>/);
  });

  test('client-side routes get the same page (SPA fallback)', async () => {
    const res = await fetch(`${server.url}/tasks/0b6c9f2e-1111-4c1a-9c8e-2d7a1c3b4e5f?page=2`, html);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<title>QR Sandbox<\/title>/);
  });

  test('hashed assets are served with long caching', async () => {
    const res = await fetch(`${server.url}/assets/app.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /max-age=31536000/);
    assert.equal(await res.text(), 'console.log("app")');
  });

  test('a missing asset is a 404, not the page', async () => {
    const res = await fetch(`${server.url}/assets/missing.js`, html);
    assert.equal(res.status, 404);
  });

  test('API and inbox paths, JSON clients and other methods never get the page', async () => {
    const api = await fetch(`${server.url}/api/nothing-here`, html);
    assert.notEqual(api.status, 200);
    const inbox = await fetch(`${server.url}/inbox/abc`, html);
    assert.notEqual(inbox.status, 200);
    const json = await fetch(`${server.url}/tasks`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    const post = await fetch(`${server.url}/tasks`, { method: 'POST', ...html });
    assert.equal(post.status, 404);
  });

  test('the build stamp is not served', async () => {
    const res = await fetch(`${server.url}/.build-stamp`, html);
    assert.doesNotMatch(await res.text(), /^x$/);
  });
});

describe('GUI serving without a build', () => {
  const server = guiServer('qr-sandbox-gui-missing-', (dir) => path.join(dir, 'not-built'));

  test('/ explains how to build the GUI instead of failing', async () => {
    const res = await fetch(`${server.url}/`, html);
    assert.equal(res.status, 503);
    const text = await res.text();
    assert.match(text, /npm run build:renderer/);
    assert.match(text, /\/api\/docs/);
  });

  test('the API still answers', async () => {
    const res = await fetch(`${server.url}/api/health`);
    assert.equal(res.status, 200);
  });
});
