import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ensureRendererBuild } from '../../../renderer/scripts/build.ts';
import type { ServeOptions } from '../../../server/server.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { lateBound } from '../../support/suite-server.ts';
import { type GuiPage, launchBrowser, openPage } from './browser.ts';

/** One real server and one Chromium for a test file; each page gets its own context (localStorage). */
export interface GuiSession {
  server: TestServer;
  browser: Browser;
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  /** A page signed in through the #key= link (another key's credential if given), showing `pathname`. */
  signedInPage(pathname?: string, credential?: { api_key: string; api_secret: string } | null): Promise<Page>;
  /** Asserts no page had a script error or CSP violation, then closes the browser and the server. */
  close(): Promise<void>;
}

export async function startGuiSession(options: Partial<ServeOptions> = {}): Promise<GuiSession> {
  await ensureRendererBuild({ quiet: true });
  const server = await startTestServer(options);
  const browser = await launchBrowser();
  const pages: GuiPage[] = [];
  const newPage: GuiSession['newPage'] = async (size) => {
    const gui = await openPage(browser, size);
    pages.push(gui);
    return gui.page;
  };
  return {
    server,
    browser,
    newPage,
    async signedInPage(pathname = '/tasks', credential = server.credentials) {
      assert.ok(credential, 'a credential to sign in with');
      const page = await newPage();
      await page.goto(`${server.url}${pathname}#key=${credential.api_key}:${credential.api_secret}`);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      return page;
    },
    async close() {
      try {
        for (const gui of pages) {
          const bad = gui.problems.filter((p) => p.startsWith('page error') || p.includes('CSP violation'));
          assert.deepEqual(bad, [], 'no script errors and no Content-Security-Policy violations');
        }
      } finally {
        await browser.close();
        await server.stop();
      }
    },
  };
}

/**
 * One GUI session for the enclosing describe: started in its before hook, closed in its after hook
 * (which fails the suite on a page's script error or CSP violation). The session and its server
 * stand for the running ones in the suite's hooks and tests.
 */
export function suiteGuiSession(options: Partial<ServeOptions> = {}): { session: GuiSession; server: TestServer } {
  let running: GuiSession | undefined;
  before(async () => {
    running = await startGuiSession(options);
  });
  after(() => running?.close());
  return {
    session: lateBound("the suite's GUI session", () => running),
    server: lateBound("the suite's GUI session's server", () => running?.server),
  };
}

/** Resolves once the page says its live updates (/api/live) are connected. */
export const waitForLive = (page: Page) =>
  page.getByRole('status', { name: 'Live updates' }).filter({ hasText: 'Live updates on' }).waitFor();
