import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserUnavailable } from '../e2e/support/browser.ts';
import { type GuiSession, startGuiSession } from '../e2e/support/session.ts';
import { jsonBody } from '../support/server.ts';

/** Where the screenshots go when QR_SANDBOX_SHOTS names a folder (to look at them). */
const SHOTS = process.env.QR_SANDBOX_SHOTS;

describe('the GUI on a full disk (injected)', { skip: browserUnavailable() ?? false }, () => {
  let gui: GuiSession;
  let full = false;
  before(async () => {
    gui = await startGuiSession({ diskAccess: { freeBytes: () => (full ? 0 : 1024 ** 3) } });
  });
  after(async () => {
    await gui.close();
  });

  it('every page shows "The disk is full" at the top while it is, and not once space is back', async () => {
    const { server } = gui;
    const page = await gui.signedInPage('/tasks');
    const banner = page.getByRole('alert').filter({ hasText: 'The disk is full.' });
    assert.equal(await banner.count(), 0, 'no banner while there is space');

    full = true;
    server.ctx.db.sqlite.pragma(`max_page_count = ${server.ctx.db.sqlite.pragma('page_count', { simple: true }) as number}`);
    let status = 0;
    for (let i = 0; i < 500 && status !== 507; i++) {
      const res = await server.request(
        '/api/qrcodes',
        jsonBody({ organization_uuid: server.organizationUuid, location: `${i} High Street, Richmond VIC 3121`, name: 'x'.repeat(400) }),
      );
      status = res.status;
      await res.body?.cancel();
    }
    assert.equal(status, 507);
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /free some space on the drive that holds QR Sandbox's data folder/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/disk-full-banner.png` });
    await page.goto(`${server.url}/webhooks`);
    await banner.waitFor();

    full = false;
    server.ctx.db.sqlite.pragma('max_page_count = 4294967294');
    await banner.waitFor({ state: 'detached' });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/disk-full-banner-gone.png` });
  });
});
