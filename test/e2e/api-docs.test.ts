/** The API reference page at /api/docs in Debian's Chromium, with every request off this server blocked. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserUnavailable, launchBrowser, openPage, type GuiPage } from './support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const skip = browserUnavailable();

describe('API reference page (offline, in Chromium)', { skip: skip ?? false }, () => {
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  const offServer: string[] = [];

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    gui = await openPage(browser);
    const origin = new URL(server.url).origin;
    await gui.context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      offServer.push(url);
      return route.abort('internetdisconnected');
    });
    await gui.page.goto(`${server.url}/api/docs`);
  });
  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.stop();
  });

  test('renders every operation and every schema of the document, with schema refs as links', async () => {
    const doc = (await (await server.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    const page = gui.page;
    const operationIds = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    assert.equal(await page.locator('section.op[id]').count(), operationIds.length);
    for (const id of operationIds) assert.equal(await page.locator(`section.op[id="${id}"]`).count(), 1, id);
    const schemaNames = Object.keys(doc.components.schemas);
    assert.equal(await page.locator('section.schema').count(), schemaNames.length);
    const task = page.locator('#schema-BackgroundTask');
    assert.match(await task.innerText(), /"task_type"/);
    // A $ref is a link that leads to the schema it names.
    await task.locator('a[href="#schema-QrCodeJsonImportTask"]').first().click();
    assert.equal(new URL(page.url()).hash, '#schema-QrCodeJsonImportTask');
    assert.match(await page.locator('#schema-QrCodeJsonImportTask').innerText(), /qr_code_inserted|QrCodeJsonImportResults/);
    assert.deepEqual(offServer, [], 'nothing is fetched from another origin');
    assert.deepEqual(gui.problems, []);
  });

  test('tries a request with the key the reader enters', async () => {
    const page = gui.page;
    const key = server.auth.replace(/^Bearer /, '');
    await page.locator('#api-key').fill(key);

    const list = page.locator('section#getBackgroundTasks');
    await list.locator('details.try > summary').click();
    await list.locator('input[name="query:organization_uuid"]').fill(server.organizationUuid);
    await list.getByRole('button', { name: 'Send GET' }).click();
    await list.locator('.try-status').waitFor();
    assert.match(await list.locator('.try-status').innerText(), /answered 200/);
    assert.match(await list.locator('.try-body').innerText(), /"items"/);

    const create = page.locator('section#postQrcodes');
    await create.locator('details.try > summary').click();
    await create.locator('textarea[name="body:json"]').fill(
      JSON.stringify({
        organization_uuid: server.organizationUuid,
        location: '12 Smith Street, Fitzroy VIC 3065',
        name: 'Tried from the docs',
      }),
    );
    await create.getByRole('button', { name: 'Send POST' }).click();
    await create.locator('.try-status').waitFor();
    assert.match(await create.locator('.try-status').innerText(), /answered 201/);
    const created = JSON.parse(await create.locator('.try-body').innerText()) as { uuid: string };
    const stored = (await (await server.request(`/api/qrcodes/uuid/${created.uuid}`)).json()) as { name: string };
    assert.equal(stored.name, 'Tried from the docs');

    // Without a key the server says so, and the page shows it.
    await page.locator('#api-key').fill('');
    await list.getByRole('button', { name: 'Send GET' }).click();
    await list.locator('.try-status', { hasText: '401' }).waitFor();
    assert.deepEqual(offServer, []);
    assert.deepEqual(
      gui.problems.filter((p) => !/401/.test(p)),
      [],
    );
  });
});
