import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../server/webhooks/delivery-clock.ts';
import type { Delivery } from '../../server/webhooks/schemas.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';

const HOUR = 3_600_000;

/** The machine's clocks, with a wall clock the test can set forward or back, as NTP or a user does. */
function jumpingClock() {
  let jump = 0;
  const clock: Clock = { wallMs: () => Date.now() + jump, monoMs: () => performance.now() };
  return {
    clock,
    jumpBy(ms: number) {
      jump += ms;
    },
  };
}

async function setUp(schedule: 'standard' | 'fast') {
  const time = jumpingClock();
  const server = await startTestServer({ webhookRetrySchedule: schedule, webhookClock: time.clock });
  const arrivals: { path: string; attempt: number; at: number }[] = [];
  const receiver = await startReceiver((request) => {
    arrivals.push({ path: request.path, attempt: Number(request.headers['x-sandbox-attempt']), at: performance.now() });
    return request.path === '/check_in' && request.headers['x-sandbox-attempt'] === '1' ? { status: 500 } : { status: 200 };
  });
  const register = async (path: string) => {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({
        organization_uuid: server.organizationUuid,
        url: `${receiver.url}${path}`,
        events: [`service_confirmation.${path.slice(1)}`],
        sandbox_diagnostics: true,
      }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { uuid: string }).uuid;
  };
  const fire = async (event: string) => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: `service_confirmation.${event}` }),
    );
    assert.equal(res.status, 201);
  };
  const deliveries = async (webhook: string) => {
    const res = await server.request(`/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${server.organizationUuid}`);
    return ((await res.json()) as { items: Delivery[] }).items;
  };
  return { time, server, receiver, arrivals, register, fire, deliveries };
}

type Env = Awaited<ReturnType<typeof setUp>>;

/** The environment of a describe's tests: set up before them, stopped after them. */
function environment(schedule: 'standard' | 'fast'): Env {
  const env = {} as Env;
  before(async () => {
    Object.assign(env, await setUp(schedule));
  });
  after(async () => {
    await env.server.stop();
    await env.receiver.close();
  });
  return env;
}

describe('retry waits follow the monotonic clock, not wall-clock jumps', () => {
  const env = environment('fast');

  it('a wall clock set back an hour does not hold back a retry due in a second', async () => {
    // The webhook's events are named after its path: /check_in gets service_confirmation.check_in.
    const failing = await env.register('/check_in');
    await env.fire('check_in');
    await waitFor('attempt 1 to fail', async () => ((await env.deliveries(failing))[0]?.attempts.length === 1 ? true : undefined));
    env.time.jumpBy(-HOUR);
    const [delivered] = await waitFor('the retry to be delivered', async () => {
      const items = await env.deliveries(failing);
      return items[0]?.status === 'delivered' ? items : undefined;
    });
    assert.equal(delivered?.attempt_count, 2);
  });
});

describe('retry waits follow the monotonic clock: a jump forward does not release them early', () => {
  const env = environment('standard');

  it('a wall clock set forward an hour leaves a 5 s retry 5 s away; an event after the jump goes at once', async () => {
    const failing = await env.register('/check_in');
    const other = await env.register('/check_out');
    await env.fire('check_in');
    await waitFor('attempt 1 to fail', async () => ((await env.deliveries(failing))[0]?.attempts.length === 1 ? true : undefined));
    env.time.jumpBy(HOUR);
    await env.fire('check_out');
    await waitFor('the event after the jump to arrive', () => (env.arrivals.some((a) => a.path === '/check_out') ? true : undefined));
    const [delivered] = await waitFor('the retry to be delivered', async () => {
      const items = await env.deliveries(failing);
      return items[0]?.status === 'delivered' ? items : undefined;
    });
    assert.equal(delivered?.attempt_count, 2);
    const [first, second] = env.arrivals.filter((a) => a.path === '/check_in');
    assert.ok(first && second);
    // The standard schedule waits 5 s (plus jitter) after attempt 1 failed, which was after it arrived.
    assert.ok(second.at - first.at >= 5000, `the retry came ${Math.round(second.at - first.at)} ms after attempt 1`);
    assert.equal((await env.deliveries(other))[0]?.status, 'delivered');
  });
});
