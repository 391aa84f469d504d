import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { sleep } from '../webhooks/support.ts';

const PER_KEY = 3;
const PER_ADDRESS = 5;
const WINDOW_MS = 1500;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: { code: string; message: string } };
}

/** GET with this Authorization from a chosen loopback source address (127.0.0.1 by default). */
function call(server: TestServer, authorization: string, from = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/api/session`, { headers: { authorization }, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(text) as Answer['body'] }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('failed authentication is throttled per address and key id, never the right secret', () => {
  let server: TestServer;
  let key: { api_key: string; api_secret: string };
  const right = () => `Bearer ${key.api_key}:${key.api_secret}`;
  const wrong = (n: number | string, apiKey = key.api_key) => `Bearer ${apiKey}:wrong-${n}`;

  before(async () => {
    server = await startTestServer({ authThrottle: { perKey: PER_KEY, perAddress: PER_ADDRESS, windowMs: WINDOW_MS } });
    key = (await (await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'guessed at' }))).json()) as typeof key;
  });
  after(() => server.stop());

  it('wrong secrets for a key id get 401, then 429 with Retry-After; the right secret passes throughout', async () => {
    for (let n = 0; n < PER_KEY; n++) assert.equal((await call(server, wrong(n))).status, 401);
    const throttled = await call(server, wrong('over'));
    assert.equal(throttled.status, 429);
    assert.equal(throttled.body.error?.code, 'TOO_MANY_REQUESTS');
    assert.match(throttled.body.error?.message ?? '', /with this API key.*the right secret is always accepted/);
    const retryAfter = Number(throttled.retryAfter);
    assert.ok(retryAfter >= 1 && retryAfter <= Math.ceil(WINDOW_MS / 1000), `Retry-After ${throttled.retryAfter}`);

    for (let i = 0; i < 3; i++) {
      assert.equal((await call(server, right())).status, 200, 'the right secret is not locked out');
      assert.equal((await call(server, wrong(`again-${i}`))).status, 429, 'wrong ones stay throttled');
    }
    // Another client address is not slowed down by this one's guesses.
    assert.equal((await call(server, wrong('elsewhere'), '127.0.0.2')).status, 401);
    assert.equal((await call(server, right(), '127.0.0.2')).status, 200);

    await sleep(WINDOW_MS + 100);
    assert.equal((await call(server, wrong('next window'))).status, 401, 'a new window starts afresh');
  });

  it('an address spraying many key ids is throttled as a whole, and a right secret from it still passes', async () => {
    const from = '127.0.0.3';
    for (let n = 0; n < PER_ADDRESS; n++) assert.equal((await call(server, wrong(n, `made-up-key-${n}`), from)).status, 401, `key id ${n}`);
    const throttled = await call(server, wrong('x', 'yet-another-key'), from);
    assert.equal(throttled.status, 429);
    assert.match(throttled.body.error?.message ?? '', /from this address/);
    assert.ok(Number(throttled.retryAfter) >= 1);
    assert.equal((await call(server, wrong('x', key.api_key), from)).status, 429, 'a real key id with a wrong secret too');
    assert.equal((await call(server, right(), from)).status, 200, 'the right secret passes from the flooding address');
    assert.equal((await call(server, `${right()}`, '127.0.0.4')).status, 200);
    assert.equal((await call(server, wrong('y', 'made-up-key-0'), '127.0.0.4')).status, 401, 'other addresses are not affected');
  });
});
