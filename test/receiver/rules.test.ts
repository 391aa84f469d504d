import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Delivery } from '../../server/webhooks/schemas.ts';
import { createInbox, listMessages, patchInbox, type InboxView } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { registerWebhook, simulateCheckIn } from '../support/webhooks.ts';
import { suiteServer } from '../support/suite-server.ts';
import { waitFor } from '../webhooks/support.ts';

interface RulesView extends InboxView {
  rules: Array<{ match: Record<string, unknown>; respond: Record<string, unknown> }>;
}

function settled(server: TestServer, webhookUuid: string): Promise<Delivery> {
  return waitFor('the delivery to settle', async () => {
    const res = await server.request(`/api/webhooks/uuid/${webhookUuid}/deliveries?organization_uuid=${server.organizationUuid}`);
    const delivery = ((await res.json()) as { items: Delivery[] }).items[0];
    return delivery && delivery.status !== 'pending' ? delivery : undefined;
  });
}

/** A request as a curl user would send it: not a sealed delivery, so unmatched it is answered 400. */
function post(url: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"payload":"x"}', signal });
}

describe('inbox answer rules', () => {
  const server = suiteServer(() => startTestServer({ webhookRetrySchedule: 'fast' }));

  it('fails the first 2 attempts of a real delivery with 503 by one rule, then takes attempt 3 with 200', async () => {
    const inbox = (await createInbox(server, {
      name: 'flaky',
      rules: [{ match: { attempt_at_most: 2 }, respond: { status: 503 } }],
    })) as RulesView;
    assert.deepEqual(inbox.rules, [{ match: { attempt_at_most: 2 }, respond: { status: 503 } }]);
    const webhook = await registerWebhook(server, inbox.url);
    await simulateCheckIn(server);
    const delivery = await settled(server, webhook.uuid);
    assert.equal(delivery.status, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((a) => [a.attempt, a.status_code]),
      [
        [1, 503],
        [2, 503],
        [3, 200],
      ],
    );
    assert.match(delivery.attempts[0]?.response_excerpt ?? '', /Rule 1 of this inbox answers 503/);
    const messages = (await listMessages(server, inbox.uuid)).items.reverse();
    assert.deepEqual(
      messages.map((m) => [m.answer.kind, m.answer.rule]),
      [
        ['fault_status', 1],
        ['fault_status', 1],
        ['ok', null],
      ],
    );
  });

  it('matches by event type, answers with its own text body, and answers normally when no rule matches', async () => {
    const inbox = await createInbox(server, {
      rules: [{ match: { event_type: ['service_confirmation.check_out'] }, respond: { status: 410, body: 'gone for good' } }],
    });
    const matched = await post(inbox.url, { 'X-Sandbox-Event': 'service_confirmation.check_out' });
    assert.equal(matched.status, 410);
    assert.match(matched.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await matched.text(), 'gone for good');
    const other = await post(inbox.url, { 'X-Sandbox-Event': 'service_confirmation.check_in' });
    assert.equal(other.status, 400, 'the receiver contract: an undecryptable body is a 400');
    assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'VALIDATION_ERROR');
  });

  it('answers a JSON body given as an object', async () => {
    const inbox = await createInbox(server, { rules: [{ respond: { status: 429, body: { slow: 'down' } } }] });
    const res = await post(inbox.url);
    assert.equal(res.status, 429);
    assert.deepEqual(await res.json(), { slow: 'down' });
  });

  it('matches the Nth message since the rules were set, and restarts the count when they are set again', async () => {
    const rules = [{ match: { message: 2 }, respond: { status: 500 } }];
    const inbox = await createInbox(server, { rules });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(inbox.url)).status);
    assert.deepEqual(statuses, [400, 500, 400]);
    await patchInbox(server, inbox.uuid, { rules });
    assert.equal((await post(inbox.url)).status, 400);
    // The GUI's edit form sends the older setting with a new name: the rules and their count stay.
    await patchInbox(server, inbox.uuid, { name: 'renamed', response: { status: null, delay_ms: 0, drop: false } });
    assert.equal((await post(inbox.url)).status, 500);
  });

  it('matches a range of messages and of attempts; a request without X-Sandbox-Attempt meets no attempt condition', async () => {
    const inbox = await createInbox(server, {
      rules: [
        { match: { attempt: 1, message_at_least: 2, message_at_most: 3 }, respond: { status: 502 } },
        { match: { attempt_at_least: 4 }, respond: { status: 504 } },
      ],
    });
    const statuses = [];
    for (const attempt of ['1', '1', '1', '1', '5', 'five'])
      statuses.push((await post(inbox.url, { 'X-Sandbox-Attempt': attempt })).status);
    assert.deepEqual(statuses, [400, 502, 502, 400, 504, 400]);
    assert.equal((await post(inbox.url)).status, 400);
  });

  it('drops the connection of a matching request, after storing it', async () => {
    const inbox = await createInbox(server, { rules: [{ match: { attempt: 1 }, respond: { drop: true } }] });
    await assert.rejects(post(inbox.url, { 'X-Sandbox-Attempt': '1' }), /fetch failed/);
    const [message] = (await listMessages(server, inbox.uuid)).items;
    assert.equal(message?.answer.kind, 'dropped');
    assert.equal(message?.answer.rule, 1);
    assert.equal((await post(inbox.url, { 'X-Sandbox-Attempt': '2' })).status, 400);
  });

  it("holds a delayed answer without holding another inbox's intake", async () => {
    const slow = await createInbox(server, { name: 'slow', rules: [{ respond: { delay_ms: 60_000 } }] });
    const quick = await createInbox(server, { name: 'quick' });
    const abort = new AbortController();
    let slowAnswered = false;
    const held = post(slow.url, {}, abort.signal).then(
      () => {
        slowAnswered = true;
      },
      () => undefined,
    );
    await waitFor('the held request to be stored', async () => ((await listMessages(server, slow.uuid)).total === 1 ? true : undefined));
    assert.equal((await post(quick.url)).status, 400);
    assert.equal((await listMessages(server, quick.uuid)).total, 1);
    assert.equal(slowAnswered, false, 'the other inbox answered while this one still waits');
    abort.abort();
    await held;
    const [message] = (await waitFor('the held request to be recorded', async () => {
      const items = (await listMessages(server, slow.uuid)).items;
      return items[0]?.answer.kind ? items : undefined;
    })) as Array<{ answer: { kind: string | null } }>;
    assert.equal(message?.answer.kind, 'client_gone');
  });

  it('keeps the older response setting working, read and written as the rule for every request', async () => {
    const inbox = (await createInbox(server, { response: { status: 503, delay_ms: 10 } })) as RulesView;
    assert.deepEqual(inbox.rules, [{ match: {}, respond: { status: 503, delay_ms: 10 } }]);
    assert.deepEqual(inbox.response, { status: 503, delay_ms: 10, drop: false });
    assert.equal((await post(inbox.url)).status, 503);

    const withFirst = (await patchInbox(server, inbox.uuid, {
      rules: [{ match: { attempt: 1 }, respond: { status: 500 } }, ...inbox.rules],
    })) as RulesView;
    const changed = (await patchInbox(server, withFirst.uuid, { response: { status: null } })) as RulesView;
    assert.deepEqual(changed.rules, [
      { match: { attempt: 1 }, respond: { status: 500 } },
      { match: {}, respond: { delay_ms: 10 } },
    ]);
    const cleared = (await patchInbox(server, inbox.uuid, { response: { delay_ms: 0 } })) as RulesView;
    assert.deepEqual(cleared.rules, [{ match: { attempt: 1 }, respond: { status: 500 } }]);
    assert.deepEqual(cleared.response, { status: null, delay_ms: 0, drop: false });
    const dropped = (await patchInbox(server, inbox.uuid, { response: { drop: true } })) as RulesView;
    assert.deepEqual(dropped.rules.at(-1), { match: {}, respond: { drop: true } });
    assert.deepEqual(dropped.response, { status: null, delay_ms: 0, drop: true });
  });

  it('rejects invalid rules naming the rule and the field', async () => {
    const cases: Array<[unknown, string]> = [
      [
        [{ respond: {} }, { match: { attempt_at_least: 3, attempt_at_most: 2 }, respond: { status: 503 } }],
        'body.rules.1.match.attempt_at_most',
      ],
      [[{ respond: { body: 'x' } }], 'body.rules.0.respond.body'],
      [[{ respond: { status: 700 } }], 'body.rules.0.respond.status'],
      [[{ respond: { delay_ms: 60_001 } }], 'body.rules.0.respond.delay_ms'],
      [[{ match: { attempt: 0 }, respond: {} }], 'body.rules.0.match.attempt'],
      [[{ match: { message_at_least: 5, message_at_most: 1 }, respond: {} }], 'body.rules.0.match.message_at_most'],
      [[{ match: { event_type: [] }, respond: {} }], 'body.rules.0.match.event_type'],
      [[{ match: { attempts: 2 }, respond: {} }], 'body.rules.0.match'],
      [[{ match: {} }], 'body.rules.0.respond'],
      [Array.from({ length: 51 }, () => ({ respond: {} })), 'body.rules'],
      [[{ respond: { status: 500, body: { text: 'x'.repeat(70_000) } } }], 'body.rules.0.respond.body'],
    ];
    for (const [rules, path] of cases) {
      const res = await server.request('/api/inboxes', jsonBody({ organization_uuid: server.organizationUuid, name: 'bad', rules }));
      assert.equal(res.status, 400, JSON.stringify(rules));
      const body = (await res.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } };
      assert.equal(body.error.code, 'VALIDATION_ERROR');
      assert.ok(
        body.error.details.some((d) => d.path === path),
        `${path} in ${JSON.stringify(body.error.details)}`,
      );
    }
    const inbox = await createInbox(server);
    const both = await server.request(`/api/inboxes/uuid/${inbox.uuid}`, jsonBody({ rules: [], response: { status: 500 } }, 'PATCH'));
    assert.equal(both.status, 400);
    assert.match(((await both.json()) as { error: { message: string } }).error.message, /rules or response, not both/);
  });
});
