import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageWait } from '../../server/receiver/schemas.ts';
import { craft, deliveryHeaders, envelope } from '../support/deliveries.ts';
import { createInbox, deliver } from '../support/inboxes.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('waiting for inbox messages (GET /api/inboxes/uuid/{uuid}/messages/wait)', () => {
  const server = suiteServer();
  const waitPath = (inbox: string, query: Record<string, string>) =>
    `/api/inboxes/uuid/${inbox}/messages/wait?${new URLSearchParams({ organization_uuid: server.organizationUuid, ...query })}`;
  const wait = async (inbox: string, query: Record<string, string>, init?: RequestInit) => {
    const res = await server.request(waitPath(inbox, query), init);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as MessageWait;
  };
  const inboxListeners = () => server.ctx.live.listenerCount();

  it('answers at once with the messages already there, oldest first, then follows with next_after', async () => {
    const inbox = await createInbox(server);
    const first = await deliver(inbox.url, 'one', {});
    const second = await deliver(inbox.url, 'two', {});
    const all = await wait(inbox.uuid, { timeout_s: '5' });
    assert.deepEqual(
      all.messages.map((m) => m.uuid),
      [first.messageUuid, second.messageUuid],
    );
    assert.equal(all.timed_out, false);
    assert.equal(all.next_after, second.messageUuid);
    const limited = await wait(inbox.uuid, { limit: '1' });
    assert.deepEqual(
      limited.messages.map((m) => m.uuid),
      [first.messageUuid],
    );
    const none = await wait(inbox.uuid, { after: second.messageUuid, timeout_s: '0' });
    assert.deepEqual(none, { messages: [], timed_out: true, next_after: null });
  });

  it('holds the request until a message arrives, without looking again in between', async () => {
    const inbox = await createInbox(server);
    const before = inboxListeners();
    const pending = wait(inbox.uuid, { timeout_s: '30' });
    while (inboxListeners() === before) await new Promise((resolve) => setImmediate(resolve));
    const other = await createInbox(server);
    await deliver(other.url, 'elsewhere', {});
    const stored = await deliver(inbox.url, 'here', {});
    const answer = await pending;
    assert.deepEqual(
      answer.messages.map((m) => m.uuid),
      [stored.messageUuid],
    );
    assert.equal(inboxListeners(), before, 'the wait let go of the live bus');
  });

  it('filters like the messages list, and a non-matching arrival keeps it waiting', async () => {
    const inbox = await createInbox(server, { secrets: ['whsec_wait'] });
    const before = inboxListeners();
    const pending = wait(inbox.uuid, { event_type: 'service_confirmation.delivery', timeout_s: '30' });
    while (inboxListeners() === before) await new Promise((resolve) => setImmediate(resolve));
    await deliver(inbox.url, 'not a delivery', {});
    const sealed = craft(envelope({ type: 'service_confirmation.delivery' }), 'whsec_wait');
    const stored = await deliver(inbox.url, sealed.body, deliveryHeaders(sealed));
    const answer = await pending;
    assert.deepEqual(
      answer.messages.map((m) => [m.uuid, m.signature_status]),
      [[stored.messageUuid, 'valid']],
    );
  });

  it('starts after an event id (its first message), and says 404 for an unknown cursor', async () => {
    const inbox = await createInbox(server, { secrets: ['whsec_wait'] });
    const event = envelope();
    const sealed = craft(event, 'whsec_wait');
    await deliver(inbox.url, sealed.body, deliveryHeaders(sealed));
    const again = await deliver(inbox.url, sealed.body, deliveryHeaders(sealed));
    const later = await wait(inbox.uuid, { after: String(event.id), timeout_s: '0' });
    assert.deepEqual(
      later.messages.map((m) => m.uuid),
      [again.messageUuid],
    );
    const unknown = await server.request(waitPath(inbox.uuid, { after: 'evt_nothing' }));
    assert.equal(unknown.status, 404);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /evt_nothing/);
  });

  it('times out empty, refuses a timeout over 60 s and another organization', async () => {
    const inbox = await createInbox(server);
    const answer = await wait(inbox.uuid, { timeout_s: '1' });
    assert.deepEqual(answer, { messages: [], timed_out: true, next_after: null });
    const tooLong = await server.request(waitPath(inbox.uuid, { timeout_s: '61' }));
    assert.equal(tooLong.status, 400);
    const foreign = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages/wait?organization_uuid=00000000-0000-0000-0000-000000000000`,
    );
    assert.equal(foreign.status, 403);
    const missing = await server.request(waitPath('no-such-inbox', { timeout_s: '0' }));
    assert.equal(missing.status, 404);
  });

  it('lets go of everything when the client hangs up', async () => {
    const inbox = await createInbox(server);
    const before = inboxListeners();
    const abort = new AbortController();
    const pending = server.request(waitPath(inbox.uuid, { timeout_s: '60' }), { signal: abort.signal }).catch((error: unknown) => error);
    while (inboxListeners() === before) await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    assert.ok((await pending) instanceof Error);
    while (inboxListeners() !== before) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('records overrides through simulate and refuses unknown fields by name', async () => {
    const simulateDelivery = (overrides: Record<string, unknown>) =>
      server.request(
        '/api/service-confirmations/simulate',
        jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.delivery', overrides }),
      );
    const res = await simulateDelivery({ note: 'At the back door' });
    assert.equal(res.status, 201, await res.clone().text());
    const answer = (await res.json()) as { event: { data: { note: string } } };
    assert.equal(answer.event.data.note, 'At the back door');
    const bad = await simulateDelivery({ nope: 1 });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /nope/);
    const badTag = await simulateDelivery({ qr_code_tag_uuid: 'x' });
    assert.equal(badTag.status, 400);
    assert.match(await badTag.text(), /overrides\.qr_code_tag_uuid/);
  });

  it('answers an open wait when the server stops, so shutdown does not wait for it', async () => {
    const own = await startTestServer();
    const inbox = await createInbox(own);
    const before = own.ctx.live.listenerCount();
    const pending = own.request(`/api/inboxes/uuid/${inbox.uuid}/messages/wait?organization_uuid=${own.organizationUuid}&timeout_s=60`);
    while (own.ctx.live.listenerCount() === before) await new Promise((resolve) => setImmediate(resolve));
    const stopped = own.stop();
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { messages: [], timed_out: true, next_after: null });
    await stopped;
  });
});
