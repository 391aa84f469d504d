import { startTestServer, type TestServer } from './server.ts';
import type { ServeOptions } from '../../server/server.ts';

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
}

/** Polls a task until it is COMPLETED or FAILED (bounded: gives up after `limit` polls); `auth` for a task of another organization. */
export async function waitForTask(server: TestServer, uuid: string, limit = 600, auth?: string): Promise<TaskBody> {
  for (let i = 0; i < limit; i++) {
    const res = await server.request(`/api/background-tasks/uuid/${uuid}`, auth ? { headers: { authorization: auth } } : {});
    const task = (await res.json()) as TaskBody;
    if (task.status === 'COMPLETED' || task.status === 'FAILED') return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${uuid} did not finish`);
}

/** A multipart body with one file and text fields. */
export function fileUpload(content: Buffer | string, filename: string, fields: Record<string, string>): RequestInit {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('file', new Blob([content]), filename);
  return { method: 'POST', body: form };
}
