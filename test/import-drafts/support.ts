import assert from 'node:assert/strict';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { jsonBody, type TestServer } from '../support/server.ts';

export interface DraftBody {
  uuid: string;
  kind: string;
  source_task_uuid: string | null;
  columns: string[];
  status: string;
  rows: number;
  rows_with_problems: number;
  rows_imported: number;
  can_undo: boolean;
  last_action: string | null;
  import_task_uuid: string | null;
  last_import: { task_uuid: string; status: string; imported: number; excluded: number; message: string } | null;
}

export interface DraftRowBody {
  row_id: number;
  row_number: number | null;
  cells: Record<string, string>;
  problem: string | null;
  problem_column: string | null;
  state: string;
  checked: boolean;
}

/**
 * A QR code file whose last three rows the import excludes: an unknown suburb, a misspelt state,
 * and a tag reference (Bin 7) that the first row already took.
 */
export const QR_FILE = [
  'name,location,qr_code_external_reference_id,tag_name,tag_number',
  'Depot,"1 High Street, Carlton VIC 3053",REF-1,Bin,7',
  'Yard,"2 High Street, Carltonn VIC 3053",REF-2,,',
  'Shed,"3 High Street, Fitzroy VCI 3065",REF-3,,',
  'Gate,"4 High Street, Richmond VIC 3121",REF-4,Bin,7',
  '',
].join('\n');

/** An appointment file with a bad date and a misspelt service (the catalog has Plumbing). */
export const APPOINTMENT_FILE = [
  'tag_name,tag_number,start_date_time,location,duration,service,job_reference_id',
  'Gate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",60,Plumbing,JOB-1',
  'Gate,2,2026-13-45 09:00,"2 Collins Street, Melbourne VIC 3000",60,Plumbing,JOB-2',
  'Gate,3,2026-03-04 09:00,"3 Collins Street, Melbourne VIC 3000",60,Plumbng,JOB-3',
  '',
].join('\n');

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

/** Imports a file in the background and waits for its task. */
export async function importFile(server: TestServer, path: string, csv: string, name = 'rows.csv') {
  const accepted = await json<{ background_task_uuid: string }>(
    await server.request(path, fileUpload(csv, name, { organization_uuid: server.organizationUuid })),
    202,
  );
  return waitForTask(server, accepted.background_task_uuid);
}

export async function ensurePlumbing(server: TestServer): Promise<void> {
  const res = await server.request(
    '/api/services',
    jsonBody({ organization_uuid: server.organizationUuid, name: 'Plumbing', code: 'PLB', categories: [{ name: 'Trades' }] }),
  );
  assert.ok(res.status === 201 || res.status === 409, await res.text());
}

export async function openDraft(server: TestServer, taskUuid: string, status = 201): Promise<DraftBody> {
  return json<DraftBody>(await server.request('/api/import-drafts', jsonBody({ background_task_uuid: taskUuid })), status);
}

export async function draftRows(server: TestServer, uuid: string, query = ''): Promise<{ total: number; rows: DraftRowBody[] }> {
  return json(await server.request(`/api/import-drafts/uuid/${uuid}/rows${query}`), 200);
}

export async function editCell(server: TestServer, uuid: string, rowId: number, column: string, value: string) {
  return json<{ row: DraftRowBody; check_ms: number }>(
    await server.request(`/api/import-drafts/uuid/${uuid}/rows/${rowId}`, jsonBody({ column, value }, 'PATCH')),
    200,
  );
}
