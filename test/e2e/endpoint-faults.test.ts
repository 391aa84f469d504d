/**
 * Faults a real endpoint has, in Chromium against a real server: the inbox's answer rules editor,
 * a webhook's own retry schedule, the notice of a delivery whose retries ran out (live), and a
 * webhook disabled automatically and enabled again. QR_SANDBOX_DOC_SHOTS=1 also writes the
 * screenshot of the rules editor that docs/webhooks.md shows.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createInbox } from '../support/inboxes.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { jsonBody } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

describe('GUI: answer rules, retry schedules, exhausted and disabled webhooks in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ logLevel: 'warn' });

  async function register(url: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: server.organizationUuid, url, events: ['service_confirmation.check_in'], ...extra }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { uuid: string }).uuid;
  }

  const simulate = async () => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.equal(res.status, 201);
  };

  const getJson = async <T>(pathname: string): Promise<T> => (await (await server.request(pathname)).json()) as T;

  test('edits an inbox’s rules: preset, add, reorder, remove, field problems, save', async () => {
    const inbox = await createInbox(server, { name: 'Payroll app (flaky)' });
    const page = await session.newPage({ width: 1280, height: 1000 });
    const credential = server.credentials;
    assert.ok(credential);
    await page.goto(`${server.url}/inspector/${inbox.uuid}#key=${credential.api_key}:${credential.api_secret}`);
    const editor = page.getByRole('form', { name: 'Answer rules' });
    await editor.getByText('No rules: this inbox answers every request normally.').waitFor();

    await editor.getByRole('button', { name: 'Add preset' }).click();
    const rule1 = editor.getByRole('group', { name: 'Rule 1', exact: true });
    assert.equal(await rule1.getByLabel('Attempt to').inputValue(), '2');
    assert.equal(await rule1.getByLabel('Status').inputValue(), '503');

    await editor.getByRole('button', { name: 'Add a rule' }).click();
    const rule2 = editor.getByRole('group', { name: 'Rule 2', exact: true });
    await rule2.getByRole('checkbox', { name: 'Check-out' }).check();
    await rule2.getByLabel('Status').fill('42');
    await rule2.getByLabel('Body (optional)').fill('{"error": "gone"}');
    await editor.getByRole('button', { name: 'Save rules' }).click();
    assert.match(await rule2.locator('.field-problem').first().innerText(), /200 to 599/);
    await rule2.getByLabel('Status').fill('410');

    // Found by the server: the rule and the field are named.
    await rule1.getByLabel('Attempt from').fill('3');
    await editor.getByRole('button', { name: 'Save rules' }).click();
    await rule1
      .locator('.field-problem')
      .filter({ hasText: /attempt_at_least|at least/ })
      .waitFor();
    await rule1.getByLabel('Attempt from').fill('');

    await editor.getByRole('button', { name: 'Add a rule' }).click();
    await editor.getByRole('group', { name: 'Rule 3', exact: true }).getByLabel('Delay (ms)').fill('2000');
    await editor.getByRole('button', { name: 'Remove rule 3' }).click();
    await editor.getByRole('button', { name: 'Move rule 2 up' }).click();
    await editor.getByRole('button', { name: 'Save rules' }).click();
    await editor.getByRole('status').filter({ hasText: 'Rules saved' }).waitFor();

    const saved = await getJson<{ rules: unknown[] }>(`/api/inboxes/uuid/${inbox.uuid}`);
    assert.deepEqual(saved.rules, [
      { match: { event_type: ['service_confirmation.check_out'] }, respond: { status: 410, body: { error: 'gone' } } },
      { match: { attempt_at_most: 2 }, respond: { status: 503 } },
    ]);
    await page.locator('.page-description').filter({ hasText: '2 answer rules' }).waitFor();
    const answer = await fetch(inbox.url, { method: 'POST', headers: { 'X-Sandbox-Event': 'service_confirmation.check_out' }, body: '{}' });
    assert.equal(answer.status, 410);

    if (process.env.QR_SANDBOX_DOC_SHOTS === '1') {
      await editor.evaluate((el) => el.closest('section')?.scrollIntoView({ block: 'start' }));
      await editor
        .locator('xpath=ancestor::section[1]')
        .screenshot({ path: path.join(REPO_ROOT, 'docs/images/inbox-answer-rules.png'), animations: 'disabled' });
    }
  });

  test('a webhook’s own retry schedule from its page, and a live notice when its retries run out', async () => {
    const inbox = await createInbox(server, { name: 'always down', rules: [{ respond: { status: 500 } }] });
    const webhookUuid = await register(inbox.url);
    const page = await session.signedInPage(`/webhooks/${webhookUuid}`);
    const form = page.getByRole('form', { name: 'Retry schedule' });
    await form.getByLabel('Retry schedule').selectOption('custom');
    await form.getByLabel(/Waits before attempt 2/).fill('0.05, 0.1');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await waitFor('the schedule to be saved', async () => {
      const hook = await getJson<{ retry_schedule: unknown }>(`/api/webhooks/uuid/${webhookUuid}`);
      return Array.isArray(hook.retry_schedule) ? hook.retry_schedule : undefined;
    }).then((schedule) => assert.deepEqual(schedule, [50, 100]));

    await page.getByRole('link', { name: '← All webhooks' }).click();
    await waitForLive(page);
    await simulate();
    const notice = page.getByRole('alert').filter({ hasText: 'Delivery failed.' });
    await notice.waitFor();
    assert.match(await notice.innerText(), /gave up after 3 attempts/);
    await notice.getByRole('link', { name: 'the delivery log' }).click();
    await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Delivery failed.' }).getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Delivery failed.' }).count(), 0);
  });

  test('a webhook disabled automatically says why on its page and in the list, and is enabled again with one click', async () => {
    assert.equal((await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: 1 }, 'PATCH'))).status, 200);
    try {
      const inbox = await createInbox(server, { name: 'gone for the weekend', rules: [{ respond: { status: 503 } }] });
      const webhookUuid = await register(inbox.url, { retry_schedule: Array.from({ length: 20 }, () => 300) });
      const page = await session.signedInPage(`/webhooks/${webhookUuid}`);
      await waitForLive(page);
      await simulate();
      const notice = page.getByRole('alert').filter({ hasText: 'Disabled automatically.' });
      await notice.waitFor();
      assert.match(await notice.innerText(), /every delivery attempt failed for 1 s/);
      await page.getByRole('link', { name: '← All webhooks' }).click();
      await page.getByRole('listitem', { name: inbox.url }).getByText('Disabled automatically').waitFor();
      await page.getByRole('link', { name: inbox.url }).click();
      await page.getByRole('button', { name: 'Enable again' }).click();
      await page.getByRole('alert').filter({ hasText: 'Disabled automatically.' }).waitFor({ state: 'detached' });
      const hook = await getJson<{ is_active: boolean; disabled_reason: string | null }>(`/api/webhooks/uuid/${webhookUuid}`);
      assert.equal(hook.is_active, true);
      assert.equal(hook.disabled_reason, null);
    } finally {
      await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: null }, 'PATCH'));
    }
  });

  test('the time before a failing webhook is disabled is a setting an admin changes in hours', async () => {
    const page = await session.signedInPage('/settings');
    const field = page.getByLabel(/Disable a webhook whose every attempt failed for/);
    assert.equal(await field.inputValue(), '24');
    await field.fill('1.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    try {
      const settings = await getJson<{ webhook_auto_disable_after_s: number }>('/api/settings');
      assert.equal(settings.webhook_auto_disable_after_s, 5400);
    } finally {
      await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: null }, 'PATCH'));
    }
  });
});
