/** An inbox at its message cap in Chromium: the count of dropped messages, on load and live. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createInbox, deliver } from '../support/inboxes.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

describe('Inspector: an inbox that keeps only its newest messages', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ logLevel: 'warn', inboxLimits: { maxMessages: 2 } });

  test('says how many of the oldest messages were dropped, and counts new ones live', async () => {
    const inbox = await createInbox(server, { name: 'Capped' });
    for (let i = 0; i < 3; i++) await deliver(inbox.url, '{}', { 'content-type': 'application/json' });

    const list = await session.signedInPage('/inspector');
    const row = list.getByRole('table', { name: 'Inboxes' }).locator('tbody tr').filter({ hasText: 'Capped' });
    await row.filter({ hasText: '1 oldest dropped (keeps 2)' }).waitFor();

    const page = await session.signedInPage(`/inspector/${inbox.uuid}`);
    await waitForLive(page);
    const description = page.locator('.page-description');
    await description.filter({ hasText: '2 messages · 1 oldest dropped (keeps 2)' }).waitFor();
    await deliver(inbox.url, '{}', { 'content-type': 'application/json' });
    await description.filter({ hasText: '2 messages · 2 oldest dropped (keeps 2)' }).waitFor();
    assert.match(await description.innerText(), /2 messages · 2 oldest dropped/);
  });
});
