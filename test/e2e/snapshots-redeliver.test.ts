/**
 * Issue 31 in Chromium: "Redeliver failed…" in a webhook's delivery log (a confirm that counts
 * them, then every one sent again to a real receiver), and Settings > Snapshots (save, restore with
 * a confirm; another open page reads the restored data by itself).
 * With QR_SANDBOX_DOC_SHOTS=1 it also writes the screenshots of docs/webhooks.md and docs/gui.md.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page as BrowserPage } from 'playwright-core';
import { describe, test } from 'node:test';
import { jsonBody } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

async function docShot(page: BrowserPage, element: Locator, name: string): Promise<void> {
  if (process.env.QR_SANDBOX_DOC_SHOTS !== '1') return;
  const file = path.resolve('docs/images', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.setViewportSize({ width: 1100, height: 800 });
  await element.screenshot({ path: file });
}

interface Page<T> {
  items: T[];
  total: number;
}

describe('Bulk redeliver and snapshots in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ webhookRetrySchedule: 'fast', webhookTimeoutMs: 1000 });
  const ok = async <T>(pathname: string, init?: RequestInit): Promise<T> => {
    const res = await server.request(pathname, init);
    const text = await res.text();
    assert.ok(res.status < 300, `${pathname}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  test('Redeliver failed… confirms how many, then sends each again to the receiver', async () => {
    const org = server.organizationUuid;
    let down = true;
    const receiver = await startReceiver(() => (down ? { status: 503, body: 'down' } : { status: 200, body: 'ok' }));
    try {
      const hook = await ok<{ uuid: string }>(
        '/api/webhooks/register',
        jsonBody({ organization_uuid: org, url: `${receiver.url}/app`, events: ['service_confirmation.check_in'] }),
      );
      for (let i = 0; i < 2; i++) {
        await ok('/api/service-confirmations/simulate', jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }));
      }
      const deliveries = `/api/webhooks/deliveries?organization_uuid=${org}&webhook_uuid=${hook.uuid}`;
      await waitFor('the first attempts', async () => {
        const page = await ok<Page<{ attempts: unknown[] }>>(deliveries);
        return page.total === 2 && page.items.every((d) => d.attempts.length > 0) ? true : undefined;
      });
      await ok(`/api/webhooks/uuid/${hook.uuid}`, jsonBody({ is_active: false }, 'PATCH'));
      await waitFor('the failed deliveries', async () =>
        (await ok<Page<unknown>>(`${deliveries}&status=failed`)).total === 2 ? true : undefined,
      );
      await ok(`/api/webhooks/uuid/${hook.uuid}`, jsonBody({ is_active: true }, 'PATCH'));
      down = false;

      const page = await session.signedInPage(`/webhooks/${hook.uuid}`);
      await page.getByRole('button', { name: 'Redeliver failed…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Redeliver failed deliveries?' });
      await dialog.getByText('2 failed deliveries of this webhook will be sent again now').waitFor();
      await docShot(page, dialog, 'webhook-redeliver-failed.png');
      const sent = receiver.received.length;
      await dialog.getByRole('button', { name: 'Redeliver 2 deliveries' }).click();
      await page.getByRole('status').filter({ hasText: 'Redelivered 2 failed deliveries.' }).waitFor();
      await waitFor('both deliveries to arrive again', () => (receiver.received.length >= sent + 2 ? true : undefined));
      await waitFor('both delivered', async () =>
        (await ok<Page<unknown>>(`${deliveries}&status=delivered`)).total === 2 ? true : undefined,
      );
      await page.getByRole('combobox', { name: 'Status' }).selectOption('delivered');
      const shown = page.getByRole('list', { name: 'Deliveries' }).locator(':scope > li');
      await shown.nth(1).waitFor();
      assert.equal(await shown.count(), 2, 'both delivered, in the delivery log');
    } finally {
      await receiver.close();
    }
  });

  test('Settings > Snapshots saves, then restores after a confirm; an open QR code list reads the restored data', async () => {
    const org = server.organizationUuid;
    await ok('/api/qrcodes', jsonBody({ organization_uuid: org, location: '1 Collins Street, Melbourne VIC 3000', name: 'Saved site' }));
    const settings = await session.signedInPage('/settings');
    const panel = settings.getByRole('region', { name: 'Snapshots' });
    await panel.getByLabel('Save as').fill('before-run');
    await panel.getByRole('button', { name: 'Save snapshot' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved snapshot “before-run”' }).waitFor();
    await panel.getByRole('table', { name: 'Snapshots' }).getByText('before-run').waitFor();

    await ok(
      '/api/qrcodes',
      jsonBody({ organization_uuid: org, location: '2 Collins Street, Melbourne VIC 3000', name: 'Made by the run' }),
    );
    const list = await session.signedInPage('/qrcodes');
    await waitForLive(list);
    await list.getByText('Made by the run').waitFor();

    await panel.getByRole('button', { name: 'Restore before-run' }).click();
    const dialog = settings.getByRole('dialog', { name: 'Restore “before-run”?' });
    await dialog.getByText(/All of this organization’s data is replaced/).waitFor();
    await dialog.getByRole('button', { name: 'Replace and restore' }).click();
    const restored = panel.getByRole('status').filter({ hasText: 'Restored “before-run”' });
    await restored.waitFor();
    assert.match(
      (await restored.textContent()) ?? '',
      /: 2 QR codes, 0 appointments, 1 webhook, 0 inboxes\.$/,
      'counts in words of the right number',
    );
    await docShot(settings, panel, 'settings-snapshots.png');

    // The other page was told (organization.replaced) and read its list again.
    await list.getByText('Made by the run').waitFor({ state: 'detached' });
    await list.getByText('Saved site').waitFor();
    const qrcodes = await ok<Page<{ name: string }>>(`/api/qrcodes?organization_uuid=${org}&search=collins`);
    assert.deepEqual(
      qrcodes.items.map((q) => q.name),
      ['Saved site'],
    );
  });
});
