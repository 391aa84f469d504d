import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { FailedAuthThrottle } from '../../server/auth/throttle.ts';
import { ApiError } from '../../server/http/errors.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const PER_KEY = 3;
const PER_ADDRESS = 5;
/** Counters of (address, key id) the server keeps: a burst of fresh key ids from one address overflows it many times. */
const MAX_KEY_COUNTERS = 200;
/** Past the old shared bound of 10,000 counters (one more per fresh key id), whose overflow evicted the address's counter. */
const BURST = 10_200;
/** Requests in flight at once, over as many kept-alive connections. */
const IN_FLIGHT = 8;
/** Long enough for the burst on a slow, busy machine: the window must not end in the middle of it. */
const WINDOW_MS = 10 * 60_000;

/** The status of a GET /api/session with this Authorization, over a kept-alive connection from `agent`'s address. */
function status(url: string, agent: http.Agent, authorization: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/session`, { headers: { authorization }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a burst of fresh key ids from one address does not reset its limit', () => {
  const server = suiteServer(() =>
    startTestServer({ authThrottle: { perKey: PER_KEY, perAddress: PER_ADDRESS, windowMs: WINDOW_MS, maxKeyCounters: MAX_KEY_COUNTERS } }),
  );

  it(`${BURST} wrong credentials, each with a new key id: ${PER_ADDRESS} get 401, every other one 429; the right secret still passes`, async () => {
    const key = (await (await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'flooded' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, localAddress: '127.0.0.21' });
    try {
      const seen = new Map<number, number>();
      for (let n = 0; n < BURST; n += IN_FLIGHT) {
        const batch = Array.from({ length: Math.min(IN_FLIGHT, BURST - n) }, (_, i) =>
          status(server.url, agent, `Bearer fresh-key-${n + i}:wrong`),
        );
        for (const answer of await Promise.all(batch)) seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      }
      assert.deepEqual(Object.fromEntries(seen), { 401: PER_ADDRESS, 429: BURST - PER_ADDRESS });

      const guess = await status(server.url, agent, `Bearer ${key.api_key}:wrong`);
      assert.equal(guess.status, 429, 'a guess at a real key id after the burst is still throttled');
      assert.ok(Number(guess.retryAfter) >= 1 && Number(guess.retryAfter) <= WINDOW_MS / 1000, `Retry-After ${guess.retryAfter}`);
      assert.equal((await status(server.url, agent, `Bearer ${key.api_key}:${key.api_secret}`)).status, 200);
    } finally {
      agent.destroy();
    }
    const elsewhere = new http.Agent({ localAddress: '127.0.0.22' });
    try {
      assert.equal((await status(server.url, elsewhere, 'Bearer fresh-key-0:wrong')).status, 401, 'another address is not affected');
    } finally {
      elsewhere.destroy();
    }
  });
});

describe('address counters are never dropped while their window runs', () => {
  it('with every address counter live, a wrong attempt from a new address gets 429 until the oldest window ends, and none is forgotten', () => {
    let now = 0;
    const throttle = new FailedAuthThrottle({ perKey: 100, perAddress: 2, windowMs: 60_000, maxAddressCounters: 2, clock: () => now });
    const outcome = (address: string) => {
      try {
        throttle.fail(address, 'qrs_any');
        return 'counted';
      } catch (error) {
        assert.ok(error instanceof ApiError && error.status === 429, String(error));
        return `429 for ${error.headers['Retry-After']} s`;
      }
    };
    assert.deepEqual([outcome('10.0.0.1'), outcome('10.0.0.1'), outcome('10.0.0.1')], ['counted', 'counted', '429 for 60 s']);
    now = 10_000;
    assert.equal(outcome('10.0.0.2'), 'counted');
    assert.equal(outcome('10.0.0.3'), '429 for 50 s', 'no room: the new address waits for the oldest window');
    assert.equal(outcome('10.0.0.1'), '429 for 50 s', 'the first address is still held back');
    now = 60_000;
    assert.equal(outcome('10.0.0.3'), 'counted', 'the first window ended and made room');
  });
});

describe('throttle windows run on a monotonic clock', () => {
  /** The Retry-After seconds of the 429 this wrong attempt gets, or null for a plain 401-worthy failure. */
  const retryAfter = (throttle: FailedAuthThrottle, address: string, apiKey: string): number | null => {
    try {
      throttle.fail(address, apiKey);
      return null;
    } catch (error) {
      assert.ok(error instanceof ApiError && error.status === 429, String(error));
      return Number(error.headers['Retry-After']);
    }
  };

  it('a wall-clock jump forward does not release a lockout, and one backward does not stretch it', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-03-02T09:00:00Z') });
    const throttle = new FailedAuthThrottle({ perKey: PER_KEY, perAddress: PER_ADDRESS, windowMs: 60_000 });
    for (let n = 0; n < PER_KEY; n++) assert.equal(retryAfter(throttle, '10.0.0.1', 'qrs_victim'), null);
    const locked = retryAfter(throttle, '10.0.0.1', 'qrs_victim');
    assert.ok(locked !== null && locked <= 60, `locked out for ${locked} s`);

    t.mock.timers.setTime(Date.parse('2026-03-02T11:00:00Z'));
    const afterForward = retryAfter(throttle, '10.0.0.1', 'qrs_victim');
    assert.ok(afterForward !== null && afterForward <= 60, `the clock moved 2 h forward: still locked, ${afterForward} s left`);

    t.mock.timers.setTime(Date.parse('2026-03-02T07:00:00Z'));
    const afterBackward = retryAfter(throttle, '10.0.0.1', 'qrs_victim');
    assert.ok(afterBackward !== null && afterBackward <= 60, `the clock moved 4 h back: Retry-After ${afterBackward} s, not hours`);
  });

  it('the window ends when the monotonic clock says so, and Retry-After counts down on it', () => {
    let now = 5_000;
    const throttle = new FailedAuthThrottle({ perKey: PER_KEY, perAddress: PER_ADDRESS, windowMs: 60_000, clock: () => now });
    for (let n = 0; n < PER_KEY; n++) throttle.fail('10.0.0.2', 'qrs_key');
    assert.equal(retryAfter(throttle, '10.0.0.2', 'qrs_key'), 60);
    now += 45_500;
    assert.equal(retryAfter(throttle, '10.0.0.2', 'qrs_key'), 15);
    now += 14_500;
    assert.equal(retryAfter(throttle, '10.0.0.2', 'qrs_key'), null, 'a new window starts afresh');
  });
});
