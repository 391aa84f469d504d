/** The Events page's filters in Chromium: by type, by a delivery's status and by webhook, kept in the address. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createInbox } from '../support/inboxes.ts';
import { jsonBody } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();

describe('Events filters in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('type, delivery status and webhook narrow the list; no match says so and resets', async () => {
    const org = server.organizationUuid;
    const register = async (url: string) => {
      const res = await server.request(
        '/api/webhooks/register',
        jsonBody({ organization_uuid: org, url, events: ['service_confirmation.check_in', 'service_confirmation.delivery'] }),
      );
      assert.equal(res.status, 201);
      return (await res.json()) as { uuid: string };
    };
    const good = await register((await createInbox(server, { name: 'Answers 200' })).url);
    const failing = await createInbox(server, { name: 'Answers 503', response: { status: 503 } });
    const bad = await register(failing.url);
    const simulate = async (event: string) => {
      const res = await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid: org, event }));
      assert.ok(res.status < 300);
      return ((await res.json()) as { event: { id: string } }).event.id;
    };
    const checkIn = await simulate('service_confirmation.check_in');
    const delivery = await simulate('service_confirmation.delivery');
    await waitFor('both events delivered to the good webhook', async () => {
      const res = await server.request(`/api/webhook-events?organization_uuid=${org}&webhook_uuid=${good.uuid}&status=delivered`);
      return ((await res.json()) as { total: number }).total === 2 || undefined;
    });

    const page = await session.signedInPage('/events');
    const rows = page.getByRole('table', { name: 'Events' }).locator('tbody tr');
    const shownIds = async () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id')));
    await page.locator(`[data-event-id="${delivery}"]`).waitFor();
    assert.deepEqual(await shownIds(), [delivery, checkIn]);

    const filters = page.getByRole('search', { name: 'Filter events' });
    await filters.getByLabel('Event').selectOption({ label: 'Check-in' });
    await page.waitForURL(/type=service_confirmation.check_in/);
    await page.locator(`[data-event-id="${delivery}"]`).waitFor({ state: 'detached' });
    assert.deepEqual(await shownIds(), [checkIn]);

    await filters.getByLabel('Webhook').selectOption({ value: bad.uuid });
    await filters.getByLabel('Delivery').selectOption({ label: 'Delivered' });
    await page.getByText('No events match these filters').waitFor();
    await page.getByRole('button', { name: 'Show all events' }).click();
    await page.locator(`[data-event-id="${delivery}"]`).waitFor();
    assert.deepEqual(await shownIds(), [delivery, checkIn]);
    assert.equal(await filters.getByLabel('Event').inputValue(), '');
  });
});
