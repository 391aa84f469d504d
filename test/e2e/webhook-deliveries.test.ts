/**
 * Issue 17 point 9 in Chromium: the delivery log shows what was sent (headers, encrypted body,
 * decrypted payload) and links to the inspector message of a local inbox; the test event's QR
 * code picker searches the server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileUpload } from '../support/imports.ts';
import { createInbox } from '../support/inboxes.ts';
import { jsonBody } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();

describe('Webhook deliveries in Chromium: what was sent', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('a test event at a QR code found by search; the delivery shows the sent headers, the body and the decrypted payload, and opens in the inspector', async () => {
    const org = server.organizationUuid;
    const lines = ['location,name'];
    for (let i = 1; i <= 120; i++) lines.push(`"${i} Mitchell St, Darwin NT 0800",Depot ${i}`);
    lines.push('"12 Smith St, Fitzroy VIC 3065",Harbour lookout');
    const imported = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(lines.join('\r\n'), 'many.csv', { organization_uuid: org, processing_mode: 'sync' }),
    );
    assert.equal(imported.status, 200, await imported.clone().text());
    const inbox = await createInbox(server, { name: 'GUI inbox' });
    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org, url: inbox.url, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(registered.status, 201);

    const page = await session.signedInPage('/webhooks');
    await page.getByLabel('Find a QR code').fill('harbour look');
    await page.getByText('1 QR code match “harbour look”.').waitFor();
    const picker = page.getByLabel('QR code', { exact: true });
    const options = await picker.locator('option').allInnerTexts();
    assert.deepEqual(options.length, 2, options.join(' | '));
    await picker.selectOption({ label: 'Harbour lookout — 12 Smith St, Fitzroy VIC 3065' });
    await page.getByRole('button', { name: 'Send test event' }).click();
    const sent = page.getByRole('region', { name: 'Event sent' });
    await sent.waitFor();
    assert.match(await sent.innerText(), /12 Smith St, Fitzroy VIC 3065/);
    await sent.getByRole('link', { name: 'See the delivery' }).click();

    const delivery = page.locator('article.delivery-highlighted');
    await delivery.getByText('What was sent (attempt 1)').waitFor({ timeout: 30_000 });
    await delivery.getByText('What was sent (attempt 1)').click();
    const headers = await delivery.getByRole('table', { name: /Request headers of delivery/ }).innerText();
    assert.match(headers, /X-Service-Signature\s+sha256=[0-9a-f]{64}/);
    assert.match(headers, /Content-Type\s+application\/json/);
    assert.doesNotMatch(headers, /X-Sandbox-|X-Service-(Event|Attempt|Delivery-Id)/, 'only the headers the service sends');
    assert.match(await delivery.getByLabel(/Encrypted body of delivery/).innerText(), /^\{"payload":"[A-Za-z0-9+/=]+"\}$/);
    assert.match(await delivery.getByText(/HMAC matches/).innerText(), /HMAC matches/);
    const payload = await delivery.getByRole('group', { name: /Decrypted payload of delivery/ }).innerText();
    assert.match(payload, /service_confirmation\.check_in/);
    assert.match(payload, /12 Smith St, Fitzroy VIC 3065/);

    await delivery.getByRole('link', { name: 'Open attempt 1 in the inspector' }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/inspector/${inbox.uuid}/messages/`));
    await page
      .getByText(/12 Smith St, Fitzroy VIC 3065/)
      .first()
      .waitFor();
  });
});
