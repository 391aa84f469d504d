/**
 * axe-core (the engine of Lighthouse's accessibility audit) over every route of the GUI's router,
 * detail pages included, with the demo organization's real data: light and dark, at 1280 and 800 px.
 * No critical or serious violation may remain; moderate ones are listed in docs/gui.md.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startDemoMode } from '../../server/demo/demo-mode.ts';
import { jsonBody } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';
import { browserUnavailable, openPage } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ROUTES_FILE = path.join(import.meta.dirname, '../../renderer/src/routes.tsx');
/** Every `path: '/…'` of the router, in order. */
const routePaths = () => [...fs.readFileSync(ROUTES_FILE, 'utf8').matchAll(/path: '(\/[^']*)'/g)].map((m) => m[1] ?? '');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

async function audit(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: object): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

const describeViolation = (v: Violation, where: string) =>
  `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes
    .slice(0, 3)
    .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}]` : ''}`)
    .join('; ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`;

describe('Accessibility of every page (axe-core), light and dark, 1280 and 800 px', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('no critical or serious violation on any route, detail pages with real data', async (t) => {
    const demo = await startDemoMode(server, 500);
    const org = server.organizationUuid;
    const firstItem = async (url: string) => {
      const res = await server.request(url);
      assert.equal(res.status, 200, url);
      const item = ((await res.json()) as { items: { uuid: string }[] }).items[0];
      assert.ok(item, `an item at ${url}`);
      return item.uuid;
    };
    let params: Record<string, string>;
    try {
      const inbox = await firstItem(`/api/inboxes?organization_uuid=${org}`);
      await waitFor(
        'three demo messages in the inbox',
        async () => {
          const res = await server.request(`/api/inboxes/uuid/${inbox}/messages?organization_uuid=${org}`);
          return ((await res.json()) as { total: number }).total >= 3 || undefined;
        },
        60_000,
      );
      const tasks = (await (await server.request(`/api/background-tasks?organization_uuid=${org}&per_page=50`)).json()) as {
        items: { uuid: string; results: { excluded?: number } | null }[];
      };
      const withExcluded = tasks.items.find((t) => (t.results?.excluded ?? 0) > 0);
      assert.ok(withExcluded, 'the demo import has excluded rows');
      const draft = await server.request('/api/import-drafts', jsonBody({ background_task_uuid: withExcluded.uuid }));
      assert.equal(draft.status, 201);
      const credentials = server.credentials;
      assert.ok(credentials);
      const profile = await server.request(
        '/api/profiles/loopback',
        jsonBody({ base_url: server.url, api_key: credentials.api_key, api_secret: credentials.api_secret, organization_uuid: org }, 'PUT'),
      );
      assert.equal(profile.status, 200);
      params = {
        uuid: '',
        message: await firstItem(`/api/inboxes/uuid/${inbox}/messages?organization_uuid=${org}`),
        profile: 'loopback',
      };
      const detail: Record<string, string> = {
        '/imports/drafts/:uuid': ((await draft.json()) as { uuid: string }).uuid,
        '/tasks/:uuid': withExcluded.uuid,
        '/webhooks/:uuid': await firstItem(`/api/webhooks?organization_uuid=${org}`),
        '/inspector/:uuid': inbox,
        '/inspector/:uuid/compare': inbox,
        '/inspector/:uuid/messages/:message': inbox,
        '/remote/:profile/tasks/:uuid': withExcluded.uuid,
      };
      const paths = routePaths();
      assert.ok(paths.length >= 20, `the router's routes were read (${paths.length})`);
      const urls = paths.map((route) => {
        const values = { ...params, uuid: detail[route] ?? '' };
        return route.replace(/:(\w+)/g, (_, name: string) => {
          const value = values[name as keyof typeof values];
          assert.ok(value, `a value for :${name} of ${route} (add one when a route is added)`);
          return value;
        });
      });

      const serious: string[] = [];
      const moderate = new Map<string, Set<string>>();
      const auditAll = async (colorScheme: 'light' | 'dark', width: number, height: number) => {
        const gui = await openPage(session.browser, { width, height, colorScheme });
        try {
          const { page } = gui;
          await page.goto(`${server.url}/tasks#key=${credentials.api_key}:${credentials.api_secret}`);
          await page.getByRole('navigation', { name: 'Main' }).waitFor();
          for (const url of urls) {
            await page.goto(`${server.url}${url}`);
            await page.getByRole('main').waitFor();
            await page.waitForTimeout(300);
            await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 10_000 });
            for (const v of await audit(page)) {
              if (v.impact === 'critical' || v.impact === 'serious')
                serious.push(describeViolation(v, `${url} (${colorScheme}, ${width} px)`));
              else moderate.set(v.id, (moderate.get(v.id) ?? new Set<string>()).add(url));
            }
          }
        } finally {
          await gui.close();
        }
      };
      // The four looks in parallel: each is its own browser context.
      await Promise.all((['light', 'dark'] as const).flatMap((scheme) => [auditAll(scheme, 1280, 800), auditAll(scheme, 800, 700)]));
      for (const [id, urlsSeen] of moderate) t.diagnostic(`axe ${id} (moderate or minor): ${[...urlsSeen].join(', ')}`);
      assert.deepEqual(serious, [], `${serious.length} critical or serious axe-core violations:\n${serious.join('\n')}`);
    } finally {
      await demo.stop();
    }
  });
});
