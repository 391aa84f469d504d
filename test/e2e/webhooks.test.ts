/**
 * The Webhooks and Settings pages in Debian's Chromium against a real server, with real HTTP
 * receivers on 127.0.0.1 that the server delivers to.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { open } from '../../server/wire-format/open.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

type Json = Record<string, unknown>;

const skip = browserUnavailable();

describe('GUI: webhooks and settings in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const signedInPage = (pathname?: string, credential?: { api_key: string; api_secret: string } | null) =>
    session.signedInPage(pathname, credential);

  async function getJson<T = Json>(pathname: string): Promise<T> {
    const res = await server.request(pathname);
    assert.equal(res.status, 200, `GET ${pathname}`);
    return (await res.json()) as T;
  }

  async function registerByApi(
    url: string,
    events = ['service_confirmation.check_in'],
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: server.organizationUuid, url, events, ...extra }),
    );
    assert.equal(res.status, 201);
    return ((await res.json()) as { uuid: string }).uuid;
  }

  /** The cells of each attempt row, newest first, as the delivery log shows them. */
  async function attemptRows(delivery: Locator): Promise<string[][]> {
    const rows = delivery.getByRole('table', { name: /Attempts of delivery/ }).locator('tbody tr');
    const out: string[][] = [];
    for (const row of await rows.all()) out.push(await row.getByRole('cell').allInnerTexts());
    return out;
  }

  test('register to a local receiver, copy the secret shown once, send a check-in and see it delivered on attempt 1', async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: 'thanks, got it' }));
    const url = `${receiver.url}/hooks`;
    try {
      const page = await signedInPage('/webhooks');
      await page.getByText('No webhooks yet').waitFor();

      // The sandbox's own event is offered, marked, and off unless ticked (the default body is the service's).
      const deleted = page.getByRole('checkbox', { name: /^QR code deleted/ });
      assert.equal(await deleted.isChecked(), false);
      assert.match(await page.locator('label', { has: deleted }).innerText(), /QR Sandbox only/);
      await page.getByLabel('URL', { exact: true }).fill(url);
      await page.getByRole('checkbox', { name: /^Delivery/ }).uncheck();
      await page.locator('form').filter({ hasText: 'Register a webhook' }).getByText('Show curl').click();
      const curl = await page.locator('form').filter({ hasText: 'Register a webhook' }).getByLabel('curl command').innerText();
      assert.match(curl, /-X POST '.*\/api\/webhooks\/register'/);
      assert.ok(
        curl.includes(
          JSON.stringify({
            organization_uuid: server.organizationUuid,
            url,
            events: ['service_confirmation.check_in', 'service_confirmation.check_out'],
          }),
        ),
        curl,
      );

      await page.getByRole('button', { name: 'Register webhook' }).click();
      const panel = page.getByRole('region', { name: 'Webhook registered' });
      await panel.waitFor();
      await panel.getByText('signing secret', { exact: true }).waitFor();
      const secret = await panel.getByLabel('Signing secret').inputValue();
      assert.match(secret, /^[0-9a-f]{64}$/);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await panel.getByRole('button', { name: 'Copy secret' }).click();
      await panel.getByText('✓ Copied').waitFor();
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);

      const list = await getJson<{ items: Json[] }>(`/api/webhooks?organization_uuid=${server.organizationUuid}`);
      assert.equal(list.items.length, 1);
      const uuid = String(list.items[0]?.uuid);
      assert.deepEqual(list.items[0]?.events, ['service_confirmation.check_in', 'service_confirmation.check_out']);
      assert.equal((await getJson(`/api/webhooks/uuid/${uuid}?include_secret=true`)).secret, secret);

      await panel.getByRole('button', { name: 'Done' }).click();
      await panel.waitFor({ state: 'detached' });
      assert.ok(!(await page.content()).includes(secret), 'the secret is shown only once');
      const card = page.getByRole('listitem', { name: url });
      await card.getByText('Check-out').waitFor();
      assert.equal(await card.getByRole('switch', { name: `Active: ${url}` }).isChecked(), true);

      await page.getByLabel('Event', { exact: true }).selectOption('service_confirmation.check_in');
      await page.getByLabel('QR code', { exact: true }).selectOption({ label: 'Any QR code' });
      await page.getByRole('button', { name: 'Send test event' }).click();
      const sent = page.getByRole('region', { name: 'Event sent' });
      await sent.waitFor();
      const eventId = await sent.locator('code').filter({ hasText: /^evt_/ }).innerText();
      await sent.getByRole('link', { name: 'See the delivery' }).click();

      await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
      const deliveryId = new URL(page.url()).searchParams.get('delivery');
      assert.ok(deliveryId);
      const delivery = page.getByRole('article', { name: `Delivery ${deliveryId}` });
      await delivery.getByText('Delivered', { exact: true }).waitFor();
      assert.match((await delivery.getAttribute('class')) ?? '', /delivery-highlighted/, 'the delivery the link named stands out');
      await delivery.getByText(eventId).first().waitFor();
      const rows = await attemptRows(delivery);
      assert.equal(rows.length, 1);
      const [attempt, , status, duration, answer] = rows[0] ?? [];
      assert.equal(attempt, '1');
      assert.equal(status, '200');
      assert.match(duration ?? '', /\d+ ms|\d\.\d+ s/);
      assert.match(answer ?? '', /thanks, got it/);

      // What arrived is the event the GUI named, sealed with the secret the GUI showed.
      assert.equal(receiver.received.length, 1);
      const request = receiver.received[0];
      assert.ok(request);
      assert.ok(deliveryId);
      assert.equal(request.headers['x-sandbox-delivery-id'], undefined, 'no sandbox header unless the webhook asks for them');
      const opened = open(request.body, String(request.headers['x-service-signature']), secret);
      assert.equal(opened.verified, true);
      assert.equal((opened.json as Json).id, eventId);
      assert.equal((opened.json as Json).type, 'service_confirmation.check_in');

      // Reveal the secret later on the webhook's page.
      await page.getByRole('button', { name: 'Reveal secret' }).click();
      assert.equal(await page.getByLabel('Signing secret').inputValue(), secret);
    } finally {
      await receiver.close();
    }
  });

  test('a receiver answering 500 then 200 on the fast schedule: the retry shows live, and redeliver sends it again', async () => {
    assert.equal((await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH'))).status, 200);
    const receiver = await startReceiver((_request, index) =>
      index === 0 ? { status: 500, body: 'database is down' } : { status: 200, body: 'ok now' },
    );
    try {
      const uuid = await registerByApi(`${receiver.url}/flaky`, undefined, { sandbox_diagnostics: true });
      const page = await signedInPage(`/webhooks/${uuid}`);
      await page.getByText('No deliveries yet').waitFor();
      await waitForLive(page);

      // Sent after the page loaded: it appears through the live updates, without a reload.
      const res = await server.request(
        '/api/service-confirmations/simulate',
        jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
      );
      assert.equal(res.status, 201);
      const queued = ((await res.json()) as { deliveries: { delivery_id: string; webhook_uuid: string }[] }).deliveries;
      const deliveryId = queued.find((d) => d.webhook_uuid === uuid)?.delivery_id;
      assert.ok(deliveryId);
      const delivery = page.getByRole('article', { name: `Delivery ${deliveryId}` });
      await delivery.getByText('Delivered', { exact: true }).waitFor();
      await delivery.getByText('2 attempts').waitFor();
      let rows = await attemptRows(delivery);
      assert.deepEqual(
        rows.map((r) => [r[0], r[2]]),
        [
          ['2', '200'],
          ['1', '500'],
        ],
      );
      assert.match(rows[1]?.[4] ?? '', /500/);
      assert.match(rows[1]?.[4] ?? '', /database is down/);

      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await delivery.getByText('3 attempts').waitFor();
      await delivery.locator('tbody tr').filter({ hasText: '200' }).nth(1).waitFor();
      rows = await attemptRows(delivery);
      assert.deepEqual(rows[0]?.slice(0, 1), ['3']);
      await delivery.getByText('Delivered', { exact: true }).waitFor();
      assert.equal(receiver.received.length, 3);
      assert.deepEqual(
        receiver.received.map((r) => [r.headers['x-sandbox-delivery-id'], r.headers['x-sandbox-attempt']]),
        [
          [deliveryId, '1'],
          [deliveryId, '2'],
          [deliveryId, '3'],
        ],
      );

      // Redelivering an inactive webhook's delivery is refused: the button says why before it is pressed.
      await page.getByRole('switch', { name: `Active: ${receiver.url}/flaky` }).uncheck();
      await page.getByText('Inactive: no new deliveries').waitFor();
      assert.equal(await delivery.getByRole('button', { name: 'Redeliver' }).isDisabled(), true);
      assert.equal((await getJson(`/api/webhooks/uuid/${uuid}`)).is_active, false);
    } finally {
      await receiver.close();
      await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'standard' }, 'PATCH'));
    }
  });

  test('the sandbox diagnostic headers: off by default, ticked at registration, switched off on the webhook page', async () => {
    const page = await signedInPage('/webhooks');
    const url = 'https://hooks.example.com/diagnostics';
    await page.getByLabel('URL', { exact: true }).fill(url);
    const box = page.getByRole('checkbox', { name: /Send diagnostic headers/ });
    assert.equal(await box.isChecked(), false, 'what the service sends, by default');
    assert.match(await box.locator('xpath=..').innerText(), /QR Sandbox only[\s\S]*X-Sandbox-Attempt/);
    await box.check();
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByRole('region', { name: 'Webhook registered' }).waitFor();
    const page1 = await getJson<{ items: Array<{ uuid: string; url: string; sandbox_diagnostics: boolean }> }>(
      `/api/webhooks?organization_uuid=${server.organizationUuid}`,
    );
    const hook = page1.items.find((w) => w.url === url);
    assert.equal(hook?.sandbox_diagnostics, true);

    const webhookPage = await signedInPage(`/webhooks/${hook?.uuid}`);
    const onPage = webhookPage.getByRole('checkbox', { name: /Send diagnostic headers/ });
    assert.equal(await onPage.isChecked(), true);
    await onPage.uncheck();
    await waitFor('the PATCH', async () =>
      (await getJson(`/api/webhooks/uuid/${hook?.uuid}`)).sandbox_diagnostics === false ? true : undefined,
    );
    assert.equal(await onPage.isChecked(), false);
  });

  test('registration errors appear next to the field that caused them', async () => {
    const before = (await getJson<{ total: number }>(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).total;
    const page = await signedInPage('/webhooks');
    const url = page.getByLabel('URL', { exact: true });
    const register = page.getByRole('button', { name: 'Register webhook' });

    await register.click();
    await page.locator('#webhook-url-problem').filter({ hasText: 'Give the address' }).waitFor();

    await url.fill('http://hooks.example.com/receiver');
    await page.getByText('This http:// address is not on this machine').waitFor();
    await register.click();
    const problem = page.locator('#webhook-url-problem');
    await problem.filter({ hasText: 'Plain http:// is allowed only to this machine' }).waitFor();
    assert.match(await problem.innerText(), /hooks\.example\.com needs https:\/\//);
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByText('This http:// address is not on this machine').count(), 0, 'said once');

    await url.fill('http://127.0.0.1:9/hooks');
    for (const name of [/^Check-in/, /^Check-out/, /^Delivery/]) await page.getByRole('checkbox', { name }).uncheck();
    await register.click();
    await page.locator('#webhook-events-problem').filter({ hasText: 'Subscribe to at least one event' }).waitFor();
    assert.equal(await page.locator('#webhook-url-problem').count(), 0);
    assert.equal(await page.getByRole('alert').filter({ hasText: 'See the field marked above' }).count(), 1);

    assert.equal(
      (await getJson<{ total: number }>(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).total,
      before,
      'nothing was registered',
    );
  });

  test('turn a webhook off and on from the list, and delete it after confirming', async () => {
    const url = 'https://hooks.example.com/to-delete';
    const uuid = await registerByApi(url);
    const page = await signedInPage('/webhooks');
    const card = page.getByRole('listitem', { name: url });
    const active = card.getByRole('switch', { name: `Active: ${url}` });
    // The switch moves at once and is busy until the server has answered.
    const answered = card.locator('input[role=switch][aria-busy="false"]');
    await active.uncheck();
    await card.getByText('Inactive').waitFor();
    await answered.waitFor();
    assert.equal(await active.isChecked(), false);
    assert.equal((await getJson(`/api/webhooks/uuid/${uuid}`)).is_active, false);
    await active.check();
    await card.getByText('Active', { exact: true }).waitFor();
    await answered.waitFor();
    assert.equal(await active.isChecked(), true);
    assert.equal((await getJson(`/api/webhooks/uuid/${uuid}`)).is_active, true);

    await card.getByRole('button', { name: `Delete ${url}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await server.request(`/api/webhooks/uuid/${uuid}`)).status, 200, 'cancel keeps it');

    await card.getByRole('button', { name: `Delete ${url}` }).click();
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('status').filter({ hasText: 'was deleted' }).waitFor();
    await card.waitFor({ state: 'detached' });
    assert.equal((await server.request(`/api/webhooks/uuid/${uuid}`)).status, 404);

    // Deleted elsewhere meanwhile: the switch says so in plain words, in that webhook's card.
    const goneUrl = 'https://hooks.example.com/gone';
    const gone = await registerByApi(goneUrl);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const goneCard = page.getByRole('listitem', { name: goneUrl });
    await goneCard.waitFor();
    assert.equal((await server.request(`/api/webhooks/uuid/${gone}`, { method: 'DELETE' })).status, 204);
    await goneCard.getByRole('switch', { name: `Active: ${goneUrl}` }).click();
    const alert = goneCard.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), new RegExp(`Not found\\. Webhook ${gone} not found`));
    assert.equal(await goneCard.getByRole('switch').isChecked(), true, 'back where the server left it');
  });

  test('settings: the retry schedule, http webhooks and the attempt time limit change and persist; the data folder is shown; viewers read only', async () => {
    const page = await signedInPage('/settings');
    await page.getByText(path.resolve(server.dataDir), { exact: true }).waitFor();
    const fast = page.getByRole('radio', { name: /^Fast/ });
    assert.equal(await page.getByRole('radio', { name: /^Standard/ }).isChecked(), true);
    const save = page.getByRole('button', { name: 'Save settings' });
    assert.equal(await save.isDisabled(), true, 'nothing to save yet');

    assert.match(await page.getByText(/The real service does not document its retries/).innerText(), /this sandbox's choices/);
    const timeout = page.getByLabel('Seconds an attempt may take');
    assert.equal(await timeout.inputValue(), '15');
    await timeout.fill('0');
    await save.click();
    assert.match(await page.locator('#webhook-timeout-problem').innerText(), />=1/);
    await timeout.fill('30');
    await fast.check();
    await page.getByRole('checkbox', { name: /Allow plain http:\/\/ webhooks/ }).check();
    await save.click();
    await page.getByText('Settings saved.').waitFor();
    const stored = await getJson('/api/settings');
    assert.equal(stored.webhook_retry_schedule, 'fast');
    assert.equal(stored.allow_http_webhooks, true);
    assert.equal(stored.webhook_timeout_s, 30);

    await page.reload();
    await page.getByRole('radio', { name: /^Fast/ }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /^Fast/ }).isChecked(), true, 'read back after a reload');

    // With http allowed, the register form says so and the server takes an http URL elsewhere.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('and to other machines because an admin allowed it in Settings').waitFor();

    await page.goBack();
    await page.getByRole('radio', { name: /^Standard/ }).check();
    await page.getByRole('checkbox', { name: /Allow plain http:\/\/ webhooks/ }).uncheck();
    await page.getByLabel('Seconds an attempt may take').fill('15');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const back = await getJson('/api/settings');
    assert.equal(back.webhook_retry_schedule, 'standard');
    assert.equal(back.allow_http_webhooks, false);

    const viewerRes = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'Read only' }));
    const viewer = (await viewerRes.json()) as { api_key: string; api_secret: string; organization_uuid: string };
    const viewerPage = await signedInPage('/settings', viewer);
    await viewerPage.getByText('Only an admin key can change these settings').waitFor();
    assert.equal(await viewerPage.getByRole('radio', { name: /^Fast/ }).isDisabled(), true);
    assert.equal(await viewerPage.getByRole('button', { name: 'Save settings' }).count(), 0);
    await viewerPage.getByText(path.resolve(server.dataDir), { exact: true }).waitFor();
    // On the Webhooks page a viewer reads the list, without the forms that would be refused.
    await viewerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await viewerPage.getByText('This session uses a viewer key, which reads only.').waitFor();
    await viewerPage.getByRole('list', { name: 'Webhooks' }).waitFor();
    assert.equal(await viewerPage.getByRole('button', { name: 'Register webhook' }).count(), 0);
    assert.equal(await viewerPage.getByRole('button', { name: 'Send test event' }).count(), 0);
    assert.equal(await viewerPage.getByRole('switch').first().isDisabled(), true);
    assert.equal(
      (
        await fetch(`${server.url}/api/settings`, {
          method: 'PATCH',
          headers: { authorization: bearer(viewer), 'content-type': 'application/json' },
          body: '{"webhook_retry_schedule":"fast"}',
        })
      ).status,
      403,
    );
  });
});
