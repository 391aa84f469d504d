import assert from 'node:assert/strict';
import type { ImportHandler } from '../../server/import-handlers/schemas.ts';
import { jsonBody, type TestServer } from './server.ts';

/** Saves an import handler of the server's organization through the API, asserts the 201 and answers the handler. */
export async function saveImportHandler(
  server: TestServer,
  handler: { name: string; slug?: string; mapping: Record<string, string> },
): Promise<ImportHandler> {
  const res = await server.request('/api/import-handlers', jsonBody({ organization_uuid: server.organizationUuid, ...handler }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as ImportHandler;
}
