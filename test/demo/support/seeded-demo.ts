import { startDemoMode } from '../../../server/demo/demo-mode.ts';
import { createOrganization, type OrganizationCredentials } from '../../../server/orgs/organizations.ts';
import { ok, type Page } from '../../support/organization-view.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../../support/server.ts';

export interface SeededDemo {
  server: TestServer;
  viewerAuth: string;
  editorAuth: string;
  /** A second organization, to show what a reset or restore leaves alone. */
  other: OrganizationCredentials;
  otherAuth: string;
}

/** A test server whose organization holds the demo data (seeded once), with a viewer and an editor key named `${keyName} viewer|editor`, and a second organization. */
export async function startSeededDemo(keyName: string): Promise<SeededDemo> {
  const server = await startTestServer();
  const demo = await startDemoMode(server, 3_600_000);
  await demo.stop();
  const key = (role: string) =>
    ok<{ api_key: string; api_secret: string }>(server.request('/api/api-keys', jsonBody({ role, name: `${keyName} ${role}` })));
  const viewerAuth = bearer(await key('viewer'));
  const editorAuth = bearer(await key('editor'));
  const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
  return { server, viewerAuth, editorAuth, other, otherAuth: bearer(other) };
}

/** How many items the list at `p` holds for organization `org`. */
export async function totalOf(server: TestServer, p: string, org: string, auth = server.auth): Promise<number> {
  const url = `${p}${p.includes('?') ? '&' : '?'}organization_uuid=${org}&per_page=1`;
  return (await ok<Page<unknown>>(server.request(url, { headers: { authorization: auth } }))).total;
}
