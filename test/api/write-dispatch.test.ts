import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawRequest } from '../support/raw-request.ts';
import { requestLogLine } from '../support/request-log.ts';
import { suiteServer } from '../support/suite-server.ts';

const send = (url: string, method: string, headers: Record<string, string>, body?: string | Buffer) =>
  rawRequest(url, headers, method, body);

const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

/**
 * API writes (POST, PATCH, DELETE) go straight to their route, as GETs do (get-dispatch.test.ts),
 * not through express's router: they must answer exactly as express did, body errors included.
 */
describe('API writes dispatched without the express router', () => {
  const server = suiteServer();
  const write = (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) =>
    send(`${server.url}${path}`, method, { authorization: server.auth, 'content-type': 'application/json', ...headers }, body);
  const serviceBody = (name: string, code: string) => JSON.stringify({ organization_uuid: server.organizationUuid, name, code });

  it('creates, changes and deletes through paths matched as express matches them: trailing slash, any case', async () => {
    const created = await write('POST', '/API/Services/', serviceBody('Window Cleaning', 'WIN'));
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(created.headers['content-length']), Buffer.byteLength(created.body));
    assert.equal(created.headers['x-content-type-options'], 'nosniff');
    const { uuid } = JSON.parse(created.body) as { uuid: string };

    const patched = await write('PATCH', `/api/services/uuid/${uuid}/`, JSON.stringify({ name: 'Window and Gutter Cleaning' }));
    assert.equal(patched.status, 200, patched.body);
    assert.equal((JSON.parse(patched.body) as { name: string }).name, 'Window and Gutter Cleaning');

    const deleted = await write('DELETE', `/api/services/uuid/${uuid}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.body, '');
    const gone = await send(`${server.url}/api/services/uuid/${uuid}`, 'GET', { authorization: server.auth });
    assert.equal(gone.status, 404);
  });

  it('answers a body that is not JSON, too large, of another type or charset, in the error shape, writing nothing', async () => {
    const before = await send(`${server.url}/api/services?organization_uuid=${server.organizationUuid}`, 'GET', {
      authorization: server.auth,
    });
    const total = (JSON.parse(before.body) as { total: number }).total;

    const malformed = await write('POST', '/api/services', '{"organization_uuid": ');
    assert.equal(malformed.status, 400);
    assert.equal(errorCode(malformed.body), 'VALIDATION_ERROR');
    assert.match(malformed.body, /not valid JSON/);

    const tooLarge = await write('POST', '/api/services', JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    assert.equal(tooLarge.status, 413);
    assert.equal(errorCode(tooLarge.body), 'PAYLOAD_TOO_LARGE');

    const text = await write('POST', '/api/services', serviceBody('Text Body', 'TXT'), { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    assert.equal(errorCode(text.body), 'UNSUPPORTED_MEDIA_TYPE');

    const latin1 = await write('POST', '/api/services', serviceBody('Latin Body', 'LAT'), {
      'content-type': 'application/json; charset=latin1',
    });
    assert.equal(latin1.status, 415);
    assert.equal(errorCode(latin1.body), 'UNSUPPORTED_MEDIA_TYPE');

    const invalid = await write('POST', '/api/services', JSON.stringify({ organization_uuid: server.organizationUuid, name: '' }));
    assert.equal(invalid.status, 400);
    assert.match(invalid.body, /body\.name/);

    const after = await send(`${server.url}/api/services?organization_uuid=${server.organizationUuid}`, 'GET', {
      authorization: server.auth,
    });
    assert.equal((JSON.parse(after.body) as { total: number }).total, total);
  });

  it('refuses a foreign Host or Origin and a missing key before the route runs', async () => {
    for (const [headers, status, code] of [
      [{ host: 'attacker.example' }, 403, 'FORBIDDEN'],
      [{ origin: 'https://evil.example' }, 403, 'FORBIDDEN'],
      [{ authorization: '' }, 401, 'UNAUTHORIZED'],
    ] as const) {
      const res = await write('POST', '/api/services', serviceBody('Refused', 'REF'), headers);
      assert.equal(res.status, status, JSON.stringify(headers));
      assert.equal(errorCode(res.body), code);
    }
    const list = await send(`${server.url}/api/services?organization_uuid=${server.organizationUuid}&search=refused`, 'GET', {
      authorization: server.auth,
    });
    assert.equal((JSON.parse(list.body) as { total: number }).total, 0);
  });

  it('takes an upload (a route that reads the request itself) and leaves an unknown write path to the 404 answer', async () => {
    const boundary = 'x-boundary-1';
    const form = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="organization_uuid"',
      '',
      server.organizationUuid,
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="qr.csv"',
      'Content-Type: text/csv',
      '',
      'name,location',
      'Front gate,"1 Test Street, Sydney NSW 2000"',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const upload = await write('POST', '/api/qrcodes/bulk', form, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    assert.equal(upload.status, 202, upload.body);
    assert.ok((JSON.parse(upload.body) as { background_task_uuid?: string }).background_task_uuid);

    const unknown = await write('POST', '/api/no-such-route', '{}');
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown.body), 'NOT_FOUND');
  });

  it('logs one line per write: method, path, status', async () => {
    await write('DELETE', '/api/services/uuid/logged-delete');
    assert.deepEqual(await requestLogLine(server.dataDir, 'logged-delete'), ['DELETE', '/api/services/uuid/logged-delete', 404, 'request']);
  });
});
