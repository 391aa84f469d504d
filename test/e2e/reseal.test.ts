/**
 * Edit, re-seal and send in Chromium against a real server: a received message's JSON edited in
 * the inspector (a JSON mistake named at its line and column first), re-sealed with the inbox
 * secret and sent to the inbox, where the new message arrives decrypted and valid with the edit;
 * then every broken variant, each judged by the inbox as the variant is named.
 * With QR_SANDBOX_DOC_SHOTS=1 it also writes the screenshot of docs/webhooks.md.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, getMessage } from '../support/inboxes.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();
const DOC_SHOT = path.resolve('docs/images/inspector-reseal.png');

describe('Edit, re-seal and send in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ logLevel: 'warn' });

  /** The uuid of the message the last send became, from the answer's link. */
  async function newMessageUuid(page: Page): Promise<string> {
    const link = page.getByRole('link', { name: 'Open the new message' });
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    const uuid = href.split('/').pop() ?? '';
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    return uuid;
  }

  test('edits the JSON, re-seals it to the inbox, and the new message arrives with the edit; broken variants are judged as named', async () => {
    const inbox = await createInbox(server, { name: 'Partner endpoint', secrets: [SECRET] });
    const sent = envelope({ data: { status: 'CHECK_IN', note: 'Gate code 4711', location_verified: true } });
    const d = craft(sent);
    const delivered = await deliver(inbox.url, d.body, deliveryHeaders(d));
    const page = await session.signedInPage(`/inspector/${inbox.uuid}/messages/${delivered.messageUuid}`);

    const panel = page.getByRole('region', { name: 'Edit, re-seal and send' });
    const editor = panel.getByLabel('Decrypted JSON');
    await editor.waitFor();
    assert.deepEqual(JSON.parse(await editor.inputValue()), sent);
    assert.equal(await panel.getByRole('radio', { name: /Inbox secret/ }).isChecked(), true, 'the secret that verified it');
    assert.match(await panel.getByText(/it verified this message/).innerText(), /inbox secret/);

    // A mistake is named at its line and column, and nothing is sent.
    const edited = { ...sent, data: { ...(sent.data as object), note: 'Gate code 9999 (edited)' } };
    const pretty = JSON.stringify(edited, null, 2);
    await editor.fill(pretty.replace('"Gate code 9999 (edited)"', 'Gate code 9999'));
    const problem = panel.locator('#reseal-json-problem');
    await problem.waitFor();
    assert.match(await problem.innerText(), /^Not valid JSON at line 7, column 13: this is not a JSON value/);
    await panel.getByRole('button', { name: 'Re-seal and send' }).click();
    assert.equal(await panel.getByRole('status').count(), 0, 'not sent');

    await editor.fill(pretty);
    await problem.waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Re-seal and send' }).click();
    const answer = panel.getByRole('status').filter({ hasText: 'answered 200' });
    await answer.waitFor();
    assert.match(await answer.innerText(), /sealed with inbox secret/);
    assert.match(await panel.locator('.verdict-label').innerText(), /^Decrypted · signature valid · no hint$/);
    const resealed = await newMessageUuid(page);
    if (process.env.QR_SANDBOX_DOC_SHOTS === '1') {
      fs.mkdirSync(path.dirname(DOC_SHOT), { recursive: true });
      await page.setViewportSize({ width: 1100, height: 800 });
      await panel.screenshot({ path: DOC_SHOT });
    }

    // The new message, opened from the answer: decrypted, valid, with the edit.
    await page.getByRole('link', { name: 'Open the new message' }).click();
    await page.waitForURL(`**/messages/${resealed}`);
    await page.getByRole('heading', { name: 'Check-in message', level: 1 }).waitFor();
    const badges = page.locator('.page-header .badge-row');
    await badges.filter({ hasText: 'Signature valid' }).waitFor();
    assert.match(await badges.innerText(), /Decrypted/);
    await page.getByRole('region', { name: 'Decrypted JSON' }).getByText('Gate code 9999 (edited)').first().waitFor();
    const stored = await getMessage(server, inbox.uuid, resealed);
    assert.deepEqual(stored.envelope, edited);
    assert.equal(stored.verified_with, 'inbox secret');

    // Every broken variant, from the original message: the inbox says what the variant is named by.
    await page.goto(`${server.url}/inspector/${inbox.uuid}/messages/${delivered.messageUuid}`);
    const variantSelect = panel.getByLabel('What to send');
    await variantSelect.waitFor();
    const optionNodes = variantSelect.locator('optgroup option');
    const options: Array<{ value: string; text: string }> = [];
    for (let i = 0; i < (await optionNodes.count()); i += 1) {
      const node = optionNodes.nth(i);
      options.push({ value: (await node.getAttribute('value')) ?? '', text: (await node.textContent()) ?? '' });
    }
    assert.equal(options.length, 10);
    for (const option of options) {
      await variantSelect.selectOption(option.value);
      const label = option.text.split(' — ')[1] ?? '';
      assert.match(
        await panel.locator('#reseal-variant-hint').innerText(),
        new RegExp(`The doctor says: ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      await panel.getByRole('button', { name: 'Send the broken variant' }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: `Broken variant “${option.value}”` })
        .waitFor();
      assert.equal(await panel.locator('.verdict-label').innerText(), label, option.value);
      const message = await getMessage(server, inbox.uuid, await newMessageUuid(page));
      const judged = [
        message.decrypted ? 'Decrypted' : 'Not decrypted',
        message.decrypted ? `signature ${message.signature_status}` : message.decryption_problem,
        message.hints[0]?.code ?? 'no hint',
      ].join(' · ');
      assert.equal(judged, label, `${option.value}: the inbox's verdict`);
    }

    // The last variant's message, opened: its verdicts on the page.
    await variantSelect.selectOption('tampered_ciphertext');
    await panel.getByRole('button', { name: 'Send the broken variant' }).click();
    await panel.getByRole('status').filter({ hasText: 'Broken variant “tampered_ciphertext”' }).waitFor();
    await page.getByRole('link', { name: 'Open the new message' }).click();
    const verdicts = page.getByRole('region', { name: 'Verdicts' });
    await verdicts.getByText('DECRYPTION_FAILED').first().waitFor();
    await verdicts.getByText('SIGNATURE_OF_ANOTHER_DELIVERY').waitFor();
  });
});
