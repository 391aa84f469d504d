/**
 * The Inspector and Decrypt pages in Chromium against a real server: an inbox made in the GUI,
 * a webhook registered to it from the GUI, real deliveries from the server's dispatcher and a
 * hand-made one with the wrong secret, the message page, the comparison and the decrypt tool.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seal } from '../../server/wire-format/seal.ts';
import { jsonBody } from '../support/server.ts';
import { createInbox, getMessage, listMessages, type MessageView, startCaptureServer } from '../support/inboxes.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

describe('Inspector and Decrypt in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ logLevel: 'warn' });
  // Filled in by the first test, used by the later ones (they run in order).
  let inboxUuid = '';
  let inboxUrl = '';
  let webhookSecret = '';
  let valid: MessageView | undefined;

  const signedInPage = (pathname?: string, credential?: { api_key: string; api_secret: string } | null) =>
    session.signedInPage(pathname, credential);

  const messageRows = (page: Page) => page.getByRole('table', { name: 'Messages' }).locator('tbody tr');

  test('creates an inbox, registers a webhook to it, and shows a simulated event live, decrypted and valid', async () => {
    const page = await signedInPage('/inspector');
    await page.getByText('No inboxes yet').waitFor();

    // A refused forward_to is named next to its field.
    await page.getByLabel('Name').fill('Payroll integration');
    await page.getByLabel('Forward to (optional)').fill('ftp://example.com/hooks');
    await page.getByRole('button', { name: 'Create inbox' }).click();
    const forwardProblem = page.locator('[id$="-forward-problem"]');
    await forwardProblem.waitFor();
    assert.match(await forwardProblem.innerText(), /http/i);

    await page.getByLabel('Forward to (optional)').fill('');
    await page.getByRole('button', { name: 'Create inbox' }).click();
    await page.getByRole('heading', { name: 'Payroll integration', level: 1 }).waitFor();
    inboxUuid = new URL(page.url()).pathname.split('/')[2] ?? '';
    assert.match(inboxUuid, /^[0-9a-f-]{36}$/);
    inboxUrl = await page.getByLabel('Inbox URL').innerText();
    assert.equal(inboxUrl, `${server.url}/inbox/${inboxUuid}`);
    await page.getByText('No messages yet').waitFor();

    await page.getByRole('button', { name: 'Register a webhook to this inbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Webhook registered' }).waitFor();
    const hooks = (await (await server.request(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).json()) as {
      items: { uuid: string; url: string; events: string[] }[];
    };
    assert.equal(hooks.items.length, 1);
    assert.equal(hooks.items[0]?.url, inboxUrl);
    assert.equal(hooks.items[0]?.events.length, 3);
    const hook = (await (await server.request(`/api/webhooks/uuid/${hooks.items[0]?.uuid}?include_secret=true`)).json()) as {
      secret: string;
    };
    webhookSecret = hook.secret;

    await waitForLive(page);
    const simulated = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.equal(simulated.status, 201, await simulated.clone().text());

    // Pushed by inbox.message on /api/live: no reload, no click.
    const row = messageRows(page).first();
    await row.filter({ hasText: 'Check-in' }).waitFor();
    assert.match(await row.innerText(), /Decrypted/);
    assert.match(await row.innerText(), /Signature valid/);
    assert.equal(await messageRows(page).count(), 1);
    await page.locator('.page-description').filter({ hasText: '1 message ·' }).waitFor();

    // The message page: verdicts, the envelope as a JSON tree, the headers and the raw body.
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Check-in message', level: 1 }).waitFor();
    const tree = page.getByRole('group', { name: 'Decrypted envelope' });
    await tree.waitFor();
    assert.match(await tree.innerText(), /"id": "evt_/);
    assert.match(await tree.innerText(), /"type": "service_confirmation\.check_in"/);
    const headers = page.getByRole('table', { name: 'Request headers' });
    assert.match(await headers.getByRole('row', { name: /x-service-signature/ }).innerText(), /sha256=[0-9a-f]{64}/);
    assert.equal(await headers.getByRole('row', { name: /x-sandbox-|x-service-event/ }).count(), 0, 'only the headers the service sends');
    assert.match(await page.getByLabel('Body as received').innerText(), /"payload"/);
    assert.match(await page.getByRole('region', { name: 'Verdicts' }).innerText(), /Verified with webhook/);

    // Collapsing hides the nested data; expanding shows it again.
    const nested = tree.locator('[data-json-path="data.uuid"]');
    assert.ok(await nested.isVisible());
    await tree.getByRole('button', { name: 'Collapse all' }).click();
    assert.equal(await nested.isVisible(), false);
    await tree.getByRole('button', { name: 'Expand all' }).click();
    assert.ok(await nested.isVisible());

    const items = (await listMessages(server, inboxUuid)).items;
    assert.equal(items.length, 1);
    valid = items[0] && (await getMessage(server, inboxUuid, items[0].uuid));
  });

  test('a hand-made delivery with the wrong secret shows "invalid" live; two messages compare side by side', async () => {
    assert.ok(valid, 'the first test stored a valid message');
    const page = await signedInPage(`/inspector/${inboxUuid}`);
    await messageRows(page).first().waitFor();
    await waitForLive(page);

    const envelope = {
      id: 'evt_hand-made',
      type: 'service_confirmation.check_out',
      created_at: new Date().toISOString(),
      data: { note: 'made by the test' },
    };
    const sealed = seal(JSON.stringify(envelope), 'not-the-webhook-secret');
    const answer = await fetch(inboxUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': sealed.signatureHeader,
        'x-sandbox-event': envelope.type,
        'x-sandbox-delivery-id': 'hand-made-1',
      },
      body: sealed.body,
    });
    assert.equal(answer.status, 200);

    const newest = messageRows(page).first();
    await newest.filter({ hasText: 'Check-out' }).waitFor();
    assert.match(await newest.innerText(), /Decrypted/);
    assert.match(await newest.innerText(), /Signature invalid/);

    // The filter for invalid signatures keeps only that one.
    await page.getByLabel('Signature', { exact: true }).selectOption('invalid');
    await page.getByText('1–1 of 1 message').waitFor();
    assert.equal(await messageRows(page).count(), 1);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByText('1–2 of 2 messages').waitFor();

    // Tick both, compare: differing headers and values are marked, equal ones are not.
    const boxes = page.getByRole('checkbox', { name: /for comparison/ });
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole('button', { name: 'Compare the two ticked' }).click();
    await page.getByRole('heading', { name: 'Compare messages', level: 1 }).waitFor();
    const headerTable = page.getByRole('table', { name: 'Headers side by side' });
    await headerTable.waitFor();
    assert.equal(await headerTable.getByRole('row', { name: /x-sandbox-event/ }).getAttribute('data-differs'), 'true');
    assert.equal(await headerTable.getByRole('row', { name: /^content-type/ }).getAttribute('data-differs'), null);
    const left = page.getByRole('group', { name: 'Decrypted JSON of A' });
    const right = page.getByRole('group', { name: 'Decrypted JSON of B' });
    assert.match(await left.innerText(), /made by the test/);
    assert.match(await right.innerText(), /service_confirmation\.check_in/);
    assert.match((await left.locator('[data-json-path="type"]').getAttribute('class')) ?? '', /json-marked/);
    assert.match((await left.locator('[data-json-path="data.note"]').getAttribute('class')) ?? '', /json-marked/);
    assert.match(await page.locator('.page-description').innerText(), /differ/);
    const changed = page.getByRole('table', { name: 'Changed values' });
    assert.match(
      await changed.getByRole('row', { name: /^type / }).innerText(),
      /service_confirmation\.check_out.*service_confirmation\.check_in/s,
    );
    assert.match(await changed.getByRole('row', { name: /^data\.note / }).innerText(), /made by the test/);
    assert.match(await changed.getByRole('row', { name: /^data\.uuid / }).innerText(), /\(absent\)/);

    // The message page's own "compare with…" leads to the same view.
    const invalid = (await listMessages(server, inboxUuid, 'signature_status=invalid')).items[0];
    assert.ok(invalid);
    await page.goto(`${server.url}/inspector/${inboxUuid}/messages/${invalid.uuid}`);
    await page.getByRole('heading', { name: 'Check-out message', level: 1 }).waitFor();
    assert.match(await page.getByRole('region', { name: 'Verdicts' }).innerText(), /Signature invalid/);
    await page.getByRole('button', { name: 'Compare side by side' }).click();
    await page.getByRole('table', { name: 'Headers side by side' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('b'), valid.uuid);
  });

  test('replay to your app with the relay log, export with the signature masked, fault injection set from the GUI', async () => {
    assert.ok(valid, 'the first test stored a valid message');
    const app = await startCaptureServer((_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('thanks from the app');
    });
    try {
      const page = await signedInPage(`/inspector/${inboxUuid}/messages/${valid.uuid}`);
      await page.getByRole('heading', { name: 'Check-in message', level: 1 }).waitFor();

      // A metadata address is refused, with the reason at the URL field.
      await page.getByLabel('Replay to URL').fill('http://169.254.169.254/latest');
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      await page.locator('#replay-url-problem').waitFor();

      await page.getByLabel('Replay to URL').fill(`${app.url}/hooks`);
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Your app answered 202' }).waitFor();
      const [request] = await app.waitFor(1);
      assert.ok(request);
      assert.equal(request.url, '/hooks');
      assert.equal(request.body.toString('utf8'), valid.body, 'the body byte for byte');
      const sent = Object.fromEntries(request.rawHeaders.flatMap((v, i, all) => (i % 2 === 0 ? [[v.toLowerCase(), all[i + 1]]] : [])));
      assert.equal(sent['x-service-signature'], valid.headers['x-service-signature']);
      const log = page.getByRole('table', { name: 'Forwards and replays' });
      const logRow = log.getByRole('row').filter({ hasText: `${app.url}/hooks` });
      assert.match(await logRow.innerText(), /Replay/);
      assert.match(await logRow.innerText(), /thanks from the app/);

      // Export: the signature is masked unless asked for, and asking shows the warning.
      await page.getByRole('link', { name: '← Payroll integration' }).click();
      await page.getByRole('heading', { name: 'Export' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download export' }).click()]);
      const file = await download.path();
      const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        signature_masked: boolean;
        messages: { headers: Record<string, string> }[];
      };
      assert.equal(exported.signature_masked, true);
      assert.equal(exported.messages.length, 2);
      assert.match(exported.messages[0]?.headers['x-service-signature'] ?? '', /masked/);
      await page
        .getByRole('status')
        .filter({ hasText: /Saved as inbox-.*\.json/ })
        .waitFor();
      await page.getByLabel('Include the signature').check();
      assert.match(await page.locator('#export-signature-note').innerText(), /key material/);

      // Fault injection from the edit form: the next delivery gets 503.
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Answer status').fill('503');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved' }).waitFor();
      assert.match(await page.locator('.page-description').innerText(), /every request → 503/);
      const answer = await fetch(inboxUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: valid.body });
      assert.equal(answer.status, 503);
    } finally {
      await app.close();
    }
  });

  test('a secret added in the edit form and "Verify again" turn "not checked" into "valid"; delete asks first', async () => {
    const other = await createInbox(server, { name: 'Real service' });
    const sealed = seal(
      JSON.stringify({ id: 'evt_real', type: 'service_confirmation.delivery', created_at: new Date().toISOString(), data: {} }),
      'secret-from-the-real-service',
    );
    const answer = await fetch(other.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': sealed.signatureHeader },
      body: sealed.body,
    });
    assert.equal(answer.status, 200);

    const page = await signedInPage(`/inspector/${other.uuid}`);
    const row = messageRows(page).first();
    await row.filter({ hasText: 'Delivery' }).waitFor();
    assert.match(await row.innerText(), /Signature not checked/);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Secrets (optional, one per line)').fill('an old secret\nsecret-from-the-real-service');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved' }).waitFor();
    assert.match(await page.locator('.page-description').innerText(), /2 secrets of its own/);

    await page.getByRole('button', { name: 'Verify again' }).click();
    await page.getByRole('status').filter({ hasText: 'Checked 1 message; 1 changed' }).waitFor();
    await messageRows(page).first().filter({ hasText: 'Signature valid' }).waitFor();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the inbox “Real service”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await dialog.count(), 0);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete inbox' }).click();
    await page.getByRole('heading', { name: 'Inspector', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Inboxes' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Real service' }).count(), 0);
    assert.equal((await server.request(`/api/inboxes/uuid/${other.uuid}`)).status, 404);
  });

  test("decrypt tool: a good delivery is valid, a bad one shows the doctor's hints", async () => {
    assert.ok(valid, 'the first test stored a valid message');
    const message = await getMessage(server, inboxUuid, valid.uuid);
    const signature = message.headers['x-service-signature'] ?? '';
    const page = await signedInPage('/decrypt');

    // Nothing typed: named at the fields, nothing sent.
    await page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await page.locator('#decrypt-input-problem').waitFor();
    await page.locator('#decrypt-signature-problem').waitFor();

    await page.getByLabel('Body or payload').fill(message.body);
    await page.getByLabel('Signature header').fill(signature);
    await page.getByLabel('Webhook secret (optional)').fill(webhookSecret);
    await page.getByRole('button', { name: 'Decrypt and verify' }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('Signature valid').waitFor();
    assert.match(await result.innerText(), /Decrypted/);
    assert.match(await page.getByRole('group', { name: 'Decrypted JSON' }).innerText(), new RegExp(`"id": "${message.event_id}"`));

    // A secret with a trailing newline: decrypts, invalid, and the doctor says why.
    await page.getByLabel('Webhook secret (optional)').fill(`${webhookSecret} `);
    await page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await result.getByText('Signature invalid').waitFor();
    assert.match(await page.getByRole('region', { name: "The doctor's hints" }).innerText(), /SECRET_WHITESPACE/);

    // The signature as base64 of the digest: not decrypted, with the hint in plain words.
    const hex = signature.replace(/^sha256=/, '');
    await page.getByLabel('Signature header').fill(Buffer.from(hex, 'hex').toString('base64'));
    await page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await result.getByText('Not decrypted').waitFor();
    const hints = page.getByRole('region', { name: "The doctor's hints" });
    assert.match(await hints.innerText(), /base64 of the raw 32-byte HMAC digest/);
    assert.match(await hints.innerText(), /SIGNATURE_IS_BASE64/);
    assert.equal(await page.getByRole('group', { name: 'Decrypted JSON' }).count(), 0, 'no stale plaintext from the earlier run');

    // The equivalent curl command is one click away.
    await page.getByText('Show curl').click();
    assert.match(await page.getByLabel('curl command').innerText(), /\/api\/tools\/decrypt/);
  });
});
