import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileUpload } from '../../support/imports.ts';
import { startTestServer, tempDataDir, type TestServer } from '../../support/server.ts';
import { GATE_ENV, GATED_GEOCODER_MODULE } from './gated-geocoder.ts';

/** Runs `test` against a server whose imports hold until `openGate()`; the gate is opened and the server stopped afterwards. */
export async function withGatedImports(test: (server: TestServer, openGate: () => void) => Promise<void>): Promise<void> {
  const gate = path.join(tempDataDir('qr-sandbox-gate-'), 'open');
  process.env[GATE_ENV] = gate;
  const server = await startTestServer({ imports: { geocoderModule: GATED_GEOCODER_MODULE } });
  const openGate = () => fs.writeFileSync(gate, '');
  try {
    await test(server, openGate);
  } finally {
    openGate();
    await server.stop();
    delete process.env[GATE_ENV];
  }
}

/** Starts a background import of one QR code named Held at `location` (held by the gate); asserts 202. */
export async function startHeldImport(server: TestServer, location: string): Promise<{ task: string; status: () => Promise<string> }> {
  const accepted = await server.request(
    '/api/qrcodes/bulk',
    fileUpload(`location,name\r\n"${location}",Held\r\n`, 'held.csv', {
      organization_uuid: server.organizationUuid,
      processing_mode: 'background',
    }),
  );
  assert.equal(accepted.status, 202);
  const { background_task_uuid: task } = (await accepted.json()) as { background_task_uuid: string };
  const status = async () => ((await (await server.request(`/api/background-tasks/uuid/${task}`)).json()) as { status: string }).status;
  return { task, status };
}
