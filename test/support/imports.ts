import { startTestServer, type TestServer } from './server.ts';
import type { ServeOptions } from '../../server/server.ts';
import { TINY_SUBURBS } from './tiny-geocoder.ts';

/** The tiny test geocoder's module, for servers started by tests (in process or as a child). */
export const TINY_GEOCODER_MODULE = new URL('./tiny-geocoder.ts', import.meta.url).href;

/** A test server whose imports and QR codes are located by the tiny test geocoder. */
export function startImportTestServer(options: { dataDir?: string; imports?: ServeOptions['imports'] } = {}): Promise<TestServer> {
  return startTestServer({ ...options, imports: { geocoderModule: TINY_GEOCODER_MODULE, ...options.imports } });
}

export interface TaskBody {
  uuid: string;
  status: string;
  progress: number;
  task_type: string;
  results: Record<string, unknown> | null;
  error_message: string | null;
  metadata: Record<string, unknown> | null;
  created_on: string;
  updated_on: string;
}

/** Polls a task until it is COMPLETED or FAILED (bounded: gives up after `limit` polls); `auth` for a task of another organization. */
export async function waitForTask(server: TestServer, uuid: string, limit = 600, auth?: string): Promise<TaskBody> {
  for (let i = 0; i < limit; i++) {
    const res = await server.request(`/api/background-tasks/uuid/${uuid}`, auth ? { headers: { authorization: auth } } : {});
    const task = (await res.json()) as TaskBody;
    if (task.status === 'COMPLETED' || task.status === 'FAILED') {
      await untilHandled(server, uuid);
      return task;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${uuid} did not finish`);
}

/**
 * Waits until the server is done with an ended import: its worker's last checkpoint (which holds the
 * write lock a test's own writes on the server's connection would meet) and the upload's removal.
 */
async function untilHandled(server: TestServer, uuid: string): Promise<void> {
  for (let i = 0; i < 400 && server.ctx.imports.handles(uuid); i++) await new Promise((r) => setTimeout(r, 25));
}

/** A multipart body with one file and text fields. */
export function fileUpload(content: Buffer | string, filename: string, fields: Record<string, string>): RequestInit {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('file', new Blob([content]), filename);
  return { method: 'POST', body: form };
}

/**
 * A QR code CSV of `rows` located addresses (the tiny geocoder's suburbs), every column filled;
 * row i (0-based) is named `Site i` and has the external reference `${reference}-i`.
 */
export function addressCsv(rows: number, reference: string): string {
  const lines = ['name,location,address_line_1,suburb,state,postcode,country,qr_code_external_reference_id'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length]!;
    lines.push(
      `Site ${i},"${i + 1} High Street, ${suburb} ${state} ${postcode}",${i + 1} High Street,${suburb},${state},${postcode},Australia,${reference}-${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Uploads `csv` as a background QR code import of the server's organization; the task's uuid. */
export async function startCsvImport(server: TestServer, csv: string, filename: string): Promise<string> {
  const accepted = await server.request('/api/qrcodes/bulk', fileUpload(csv, filename, { organization_uuid: server.organizationUuid }));
  if (accepted.status !== 202) throw new Error(`import not accepted: ${accepted.status} ${await accepted.text()}`);
  return ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid;
}

/** Uploads a file as a background import of the server's organization and waits for it; the COMPLETED task's results. */
export async function importFileAndWait<Results>(
  server: TestServer,
  endpoint: string,
  content: string,
  filename: string,
): Promise<Results> {
  const accepted = await server.request(endpoint, fileUpload(content, filename, { organization_uuid: server.organizationUuid }));
  if (accepted.status !== 202) throw new Error(`import not accepted: ${accepted.status} ${await accepted.text()}`);
  const { background_task_uuid } = (await accepted.json()) as { background_task_uuid: string };
  const task = await waitForTask(server, background_task_uuid);
  if (task.status !== 'COMPLETED') throw new Error(`import ended ${task.status}: ${JSON.stringify(task)}`);
  return task.results as Results;
}
