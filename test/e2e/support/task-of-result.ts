import type { Page } from 'playwright-core';
import type { TestServer } from '../../support/server.ts';

/** The background task an import result's "Task page" link points to, read from the API. */
export async function taskOfResult(
  server: TestServer,
  page: Page,
): Promise<{ uuid: string; results: Record<string, unknown>; metadata: Record<string, unknown> | null }> {
  const href = (await page.getByRole('link', { name: 'Task page' }).getAttribute('href')) ?? '';
  const uuid = /\/tasks\/([0-9a-f-]+)/.exec(href)?.[1] ?? '';
  return (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as {
    uuid: string;
    results: Record<string, unknown>;
    metadata: Record<string, unknown> | null;
  };
}
