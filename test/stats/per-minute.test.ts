import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import type { DeliveryStats, EventsPerMinute } from '../../server/stats/schemas.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { deliveryMix } from '../support/delivery-mix.ts';

/** The per-minute counts of the charts: a webhook's attempts by outcome, an organization's events. */
describe('per-minute delivery and event counts', () => {
  const server = suiteServer();
  const org = () => server.organizationUuid;
  const json = async <T>(path: string): Promise<T> => {
    const res = await server.request(path);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as T;
  };
  it('counts delivered, retried and failed attempts per minute, adding up to the attempts made', async () => {
    const mix = await deliveryMix(server);
    try {
      const { webhook } = mix;
      const stats = await json<DeliveryStats>(`/api/webhooks/uuid/${webhook.uuid}/delivery-stats?organization_uuid=${org()}`);
      assert.equal(stats.buckets.length, 60, 'one bucket per minute of the last hour');
      assert.equal(stats.since, `${stats.buckets[0]?.minute}:00.000Z`);
      assert.deepEqual({ ...stats.totals, answer_ms: null }, { delivered: 2, retried: 2, failed: 1, answer_ms: null });
      assert.equal(typeof stats.totals.answer_ms, 'number', 'every attempt got an answer, so there is a mean answer time');
      const summed = stats.buckets.reduce(
        (total, b) => ({ delivered: total.delivered + b.delivered, retried: total.retried + b.retried, failed: total.failed + b.failed }),
        { delivered: 0, retried: 0, failed: 0 },
      );
      assert.deepEqual(summed, { delivered: 2, retried: 2, failed: 1 }, 'the buckets add up to the five attempts made');
      const minutes = stats.buckets.map((b) => b.minute);
      assert.deepEqual([...minutes].sort(), minutes, 'oldest first');
      assert.ok(
        stats.buckets.every((b) => b.delivered + b.retried + b.failed > 0 || b.answer_ms === null),
        'a minute without attempts has no answer time',
      );

      const short = await json<DeliveryStats>(`/api/webhooks/uuid/${webhook.uuid}/delivery-stats?organization_uuid=${org()}&minutes=5`);
      assert.equal(short.buckets.length, 5);

      const events = await json<EventsPerMinute>(`/api/activity/per-minute?organization_uuid=${org()}&minutes=10`);
      assert.equal(events.buckets.length, 10);
      assert.equal(events.total, 3, 'the three events simulated');
      assert.equal(
        events.buckets.reduce((total, b) => total + b.events, 0),
        3,
      );
    } finally {
      await mix.close();
    }
  });

  it('refuses a bad window with the limit, another organization with 403, its webhook with 404', async () => {
    const bad = await server.request(`/api/activity/per-minute?organization_uuid=${org()}&minutes=5000`);
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as { error: { code: string; message: string; details?: { field?: string; message: string }[] } };
    assert.match(JSON.stringify(body.error), /minutes/);
    assert.match(JSON.stringify(body.error), /1440/);

    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
    const otherAuth = { authorization: bearer(other) };
    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org(), url: 'https://example.com/hooks', events: ['service_confirmation.check_in'] }),
    );
    const webhook = (await registered.json()) as { uuid: string };
    const ours = `/api/webhooks/uuid/${webhook.uuid}/delivery-stats`;
    assert.equal((await server.request(`${ours}?organization_uuid=${org()}`, { headers: otherAuth })).status, 403);
    assert.equal((await server.request(`/api/activity/per-minute?organization_uuid=${org()}`, { headers: otherAuth })).status, 403);
    const theirs = await server.request(`${ours}?organization_uuid=${other.organization_uuid}`, { headers: otherAuth });
    assert.equal(theirs.status, 404);
    assert.equal(((await theirs.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });
});
