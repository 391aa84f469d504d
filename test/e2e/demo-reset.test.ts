/** Settings > Demo data in Debian's Chromium against a real server: the reset as a presenter does it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Route } from 'playwright-core';
import { DEMO_SITES } from '../../server/demo/seed.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';
import { insertTaskRow } from '../support/tasks.ts';

const skip = browserUnavailable();

describe('Settings > Demo data in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const total = async (path: string) => {
    const res = await server.request(`${path}?organization_uuid=${server.organizationUuid}&per_page=1`);
    return ((await res.json()) as { total: number }).total;
  };

  test('an admin resets the demo data: a confirmation that says what goes, progress, the result, and the new data', async () => {
    await server.request(
      '/api/qrcodes',
      jsonBody({
        organization_uuid: server.organizationUuid,
        location: '1 Collins Street, Melbourne VIC 3000',
        name: 'Made during the demo',
      }),
    );
    const page = await session.signedInPage('/settings');
    await waitForLive(page);
    const section = page.getByRole('region', { name: 'Demo data' });

    await section.getByRole('button', { name: 'Reset demo data…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the demo data?' });
    await dialog.waitFor();
    assert.equal(
      await page.evaluate<string>('document.activeElement?.textContent'),
      'Cancel',
      'the focus starts on Cancel, so Enter deletes nothing',
    );
    const question = await dialog.innerText();
    for (const item of [
      'QR codes and their tags',
      'appointments',
      'import tasks',
      'webhooks',
      'inboxes',
      'service confirmations',
      'import handlers and services',
      'API keys and settings stay',
    ]) {
      assert.ok(question.includes(item), `the confirmation names ${item}`);
    }
    await dialog.getByText('Show curl').click();
    const curl = await dialog.getByLabel('curl command').innerText();
    assert.match(curl, /-X POST '.*\/api\/demo\/reset'/);
    assert.ok(curl.includes(`"organization_uuid":"${server.organizationUuid}"`));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await total('/api/qrcodes'), 1, 'Cancel deletes nothing');

    // Hold the request until the page has shown that it is working.
    let held: Route | undefined;
    await page.route('**/api/demo/reset', (route) => {
      held = route;
    });
    await section.getByRole('button', { name: 'Reset demo data…' }).click();
    await dialog.getByRole('button', { name: 'Delete and reset' }).click();
    await dialog.getByRole('progressbar', { name: 'Reset progress' }).waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Resetting…' }).isDisabled(), true);
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled(), true, 'a running reset cannot be dismissed');
    await page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), true, 'Escape does not close it either');
    while (!held) await new Promise((resolve) => setTimeout(resolve, 10));
    await held.continue();

    const result = section.getByRole('region', { name: 'The demo data is ready' });
    await result.waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const text = await result.innerText();
    assert.match(text, /Deleted 1 QR code, 0 appointments, 0 tasks,/);
    assert.match(text, new RegExp(`${DEMO_SITES}\\s+sites imported`));
    assert.match(text, /\d{3}\s+appointments this week/);
    assert.equal(await total('/api/qrcodes'), DEMO_SITES);
    await page.unroute('**/api/demo/reset');

    await result.getByRole('link', { name: 'appointments' }).click();
    const table = page.getByRole('table', { name: 'Appointments' });
    await table.waitFor();
    assert.match(await table.innerText(), /WO-\d{5}/, 'the demo week with its work orders');
  });

  test('a reset while an import runs is refused in the dialog, in plain words', async () => {
    await insertTaskRow(server, 'gui-running-import', { progress: 30 });
    try {
      const page = await session.signedInPage('/settings');
      await page.getByRole('button', { name: 'Reset demo data…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset the demo data?' });
      await dialog.getByRole('button', { name: 'Delete and reset' }).click();
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      assert.match(
        await alert.innerText(),
        /An import of this organization is still running \(task gui-running-import, PROCESSING\)\. Nothing was deleted\./,
      );
      assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled(), false);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await server.ctx.db.kysely.deleteFrom('background_tasks').where('uuid', '=', 'gui-running-import').execute();
    }
  });

  test('an editor sees that only an admin can reset', async () => {
    const res = await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'Presenter laptop' }));
    const editor = (await res.json()) as { api_key: string; api_secret: string };
    assert.equal((await fetch(`${server.url}/api/session`, { headers: { authorization: bearer(editor) } })).status, 200);
    const page = await session.signedInPage('/settings', editor);
    const section = page.getByRole('region', { name: 'Demo data' });
    await section.getByText('Only an admin key can reset the demo data. This session uses an editor key.').waitFor();
    assert.equal(await section.getByRole('button', { name: 'Reset demo data…' }).count(), 0);
  });
});
