import assert from 'node:assert/strict';
import type { TestServer } from './server.ts';

export interface Page<T> {
  items: T[];
  total: number;
}

/** The parsed body of a response, after checking its status (any 2xx when none is given). */
export async function ok<T>(res: Response | Promise<Response>, status?: number): Promise<T> {
  const answer = await res;
  const text = await answer.text();
  if (status) assert.equal(answer.status, status, text);
  else assert.ok(answer.status < 300, `${answer.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The lists that hold what an organization made (and what a reset or restore replaces). */
export const ORGANIZATION_LISTS = [
  '/api/qrcodes',
  '/api/services',
  '/api/webhooks',
  '/api/inboxes',
  '/api/import-handlers',
  '/api/appointment_schedule',
  '/api/background-tasks',
  '/api/service-confirmations',
] as const;

/** Everything an organization can see of itself through the API at `paths` (and each inbox's messages), to compare before and after. */
export async function organizationView(
  server: TestServer,
  org: string,
  auth: string,
  paths: readonly string[],
): Promise<{ view: Record<string, unknown>; get: (p: string) => Promise<Page<{ uuid: string }>> }> {
  const get = (p: string) =>
    ok<Page<{ uuid: string }>>(
      server.request(`${p}${p.includes('?') ? '&' : '?'}organization_uuid=${org}&per_page=100`, { headers: { authorization: auth } }),
    );
  const view: Record<string, unknown> = {};
  for (const p of paths) view[p] = await get(p);
  const inboxes = view['/api/inboxes'] as Page<{ uuid: string }> | undefined;
  for (const inbox of inboxes?.items ?? []) view[`messages ${inbox.uuid}`] = await get(`/api/inboxes/uuid/${inbox.uuid}/messages`);
  return { view, get };
}
