import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { startTestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { serverSentEvents } from '../support/sse.ts';

/** Reads server-sent events from a fetch body until `count` events have arrived. */
async function readEvents(body: ReadableStream<Uint8Array>, count: number): Promise<Array<{ event: string; data: unknown }>> {
  const events: Array<{ event: string; data: unknown }> = [];
  for await (const { event, data } of serverSentEvents(body)) {
    if (event && data) events.push({ event, data: JSON.parse(data) });
    if (events.length >= count) return events;
  }
  return events;
}

describe('live updates (/api/live)', () => {
  const server = suiteServer();

  it('streams events of its own organization to a token holder, and none of others', async () => {
    const tokenRes = await server.request('/api/live/tokens', { method: 'POST' });
    assert.equal(tokenRes.status, 201);
    const { token } = (await tokenRes.json()) as { token: string };

    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/live?token=${token}`, { signal: controller.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
    assert.ok(stream.body);
    const received = readEvents(stream.body, 2);

    const other = await createOrganization(server.ctx.db.kysely, { name: 'Elsewhere' });
    server.ctx.live.publish({ type: 'task.progress', organization_uuid: other.organization_uuid, data: { secret: 'not for you' } });
    server.ctx.live.publish({ type: 'task.progress', organization_uuid: server.organizationUuid, data: { uuid: 't1', progress: 40 } });
    server.ctx.live.publish({
      type: 'task.finished',
      organization_uuid: server.organizationUuid,
      data: { uuid: 't1', status: 'COMPLETED' },
    });

    const events = await received;
    controller.abort();
    assert.deepEqual(
      events.map((e) => e.event),
      ['task.progress', 'task.finished'],
    );
    assert.deepEqual((events[0]?.data as { data: unknown } | undefined)?.data, { uuid: 't1', progress: 40 });
  });

  it('accepts the Authorization header instead of a token', async () => {
    const controller = new AbortController();
    const res = await server.request('/api/live', { signal: controller.signal });
    assert.equal(res.status, 200);
    controller.abort();
  });

  it('answers 401 without a credential or with an unknown token, and never takes a cookie', async () => {
    for (const init of [{}, { headers: { cookie: `token=x; authorization=${server.auth}` } }]) {
      const res = await fetch(`${server.url}/api/live`, init);
      assert.equal(res.status, 401);
    }
    const unknown = await fetch(`${server.url}/api/live?token=made-up`);
    assert.equal(unknown.status, 401);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /POST \/api\/live\/tokens/);
  });

  it('does not keep the server from shutting down', async () => {
    const extra = await startTestServer();
    const { token } = (await (await extra.request('/api/live/tokens', { method: 'POST' })).json()) as { token: string };
    const res = await fetch(`${extra.url}/api/live?token=${token}`);
    assert.equal(res.status, 200);
    await extra.stop();
    assert.equal(extra.ctx.db.sqlite.open, false, 'database closed');
  });
});
