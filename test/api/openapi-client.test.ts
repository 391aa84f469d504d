import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

/**
 * What an integration developer does: generate TypeScript types from the running app's
 * /api/openapi.json with openapi-typescript, type-check a small openapi-fetch client with them,
 * and run it against the server.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
// openapi-typescript needs the TypeScript 5 compiler API; tools/openapi-typescript holds it (the project compiles with TypeScript 7).
const OPENAPI_TYPESCRIPT = path.join(root, 'tools/openapi-typescript/node_modules/openapi-typescript/bin/cli.js');
const TSC = path.join(root, 'node_modules/typescript/bin/tsc');

const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.d.ts';

type QrCode = components['schemas']['QrCode'];
type Task = components['schemas']['BackgroundTask'];

export interface Outcome {
  qrCode: QrCode;
  taskType: Task['task_type'];
  status: Task['status'];
  inserted: number;
  excludedCount: number;
  firstError: string | null;
}

export async function runClient(baseUrl: string, authorization: string, organizationUuid: string): Promise<Outcome> {
  const client = createClient<paths>({ baseUrl, headers: { authorization } });

  const created = await client.POST('/api/qrcodes', {
    body: { organization_uuid: organizationUuid, location: '12 Smith Street, Fitzroy VIC 3065', name: 'Typed client depot' },
  });
  if (!created.data) throw new Error('create failed: ' + created.error?.error.message);
  const qrCode: QrCode = created.data;

  const started = await client.POST('/api/qrcodes/bulk', {
    body: [
      { organization_uuid: organizationUuid, location: '1 Brunswick Street, Fitzroy VIC 3065', qr_code_name: 'Gate' },
      { organization_uuid: organizationUuid, location: 'nowhere at all' },
    ],
  });
  if (!started.data || !('background_task_uuid' in started.data)) throw new Error('import did not start: ' + started.error?.error.message);
  const taskUuid: string = started.data.background_task_uuid;

  for (;;) {
    const polled = await client.GET('/api/background-tasks/uuid/{background_task_uuid}', { params: { path: { background_task_uuid: taskUuid } } });
    if (!polled.data) throw new Error('poll failed: ' + polled.error?.error.message);
    const task: Task = polled.data;
    if (task.status === 'PENDING' || task.status === 'PROCESSING') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    // The union on task_type gives each kind its own results.
    if (task.task_type !== 'IMPORT' || task.results === null) throw new Error('unexpected task ' + task.task_type + ' ' + task.status);
    const results = task.results;
    return {
      qrCode,
      taskType: task.task_type,
      status: task.status,
      inserted: results.qr_code_inserted,
      excludedCount: results.excluded_count ?? results.excluded_qr_codes.length,
      firstError: results.excluded_qr_codes[0]?.error ?? null,
    };
  }
}
`;

/** Misuses the types: tsc must refuse it, or the types say nothing. */
const WRONG = `import type { components } from './api.d.ts';
type Task = components['schemas']['BackgroundTask'];
export function wrong(task: Task): number {
  if (task.task_type === 'QR_IMPORT' && task.results) return task.results.qr_code_inserted;
  return 0;
}
`;

function tsconfig(file: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'es2023',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023', 'dom'],
      types: [],
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    },
    files: [file],
  });
}

describe('a client generated from /api/openapi.json with openapi-typescript', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = tempDataDir('qr-sandbox-client-');
    // The client's imports (openapi-fetch) resolve from the project's node_modules.
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  });
  after(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await server.stop();
  });

  it('generates types from the live document, type-checks a client with the project tsc, and runs it', async () => {
    const doc = await (await server.request('/api/openapi.json')).text();
    fs.writeFileSync(path.join(dir, 'openapi.json'), doc);
    await run(process.execPath, [OPENAPI_TYPESCRIPT, path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts')], { cwd: dir });
    const types = fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
    assert.match(types, /"\/api\/background-tasks\/uuid\/\{background_task_uuid\}"/);
    assert.match(types, /QrCodeJsonImportTask: \{/);

    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig('client.ts'));
    const checked = await run(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir }).catch(
      (error: { stdout: string }) => error,
    );
    assert.equal(checked.stdout, '', `tsc found errors in the client:\n${checked.stdout}`);

    fs.writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
    fs.writeFileSync(path.join(dir, 'tsconfig.wrong.json'), tsconfig('wrong.ts'));
    const refused = await run(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.wrong.json')], { cwd: dir }).then(
      () => assert.fail('tsc accepted a QR_IMPORT task read as a JSON import'),
      (error: { stdout: string }) => error.stdout,
    );
    assert.match(refused, /qr_code_inserted/);

    const { runClient } = (await import(pathToFileURL(path.join(dir, 'client.ts')).href)) as {
      runClient: (
        baseUrl: string,
        auth: string,
        org: string,
      ) => Promise<{
        qrCode: { uuid: string; name: string };
        taskType: string;
        status: string;
        inserted: number;
        excludedCount: number;
        firstError: string | null;
      }>;
    };
    const outcome = await runClient(server.url, server.auth, server.organizationUuid);
    assert.equal(outcome.qrCode.name, 'Typed client depot');
    assert.deepEqual(
      { taskType: outcome.taskType, status: outcome.status, inserted: outcome.inserted, excluded: outcome.excludedCount },
      { taskType: 'IMPORT', status: 'COMPLETED', inserted: 1, excluded: 1 },
    );
    assert.match(outcome.firstError ?? '', /address|locat/i);
    const stored = (await (await server.request(`/api/qrcodes/uuid/${outcome.qrCode.uuid}`)).json()) as { name: string };
    assert.equal(stored.name, 'Typed client depot');
  });
});
