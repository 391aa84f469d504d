/**
 * Calls to a connection profile's service, all through this QR Sandbox server's proxy
 * (`/api/remote/{profile}/…`): the page never holds the profile's secret.
 */
import { typedRequest } from './typed-request.ts';
import type { BodyOf, ResponseOf } from './types.ts';
import type { ApiRequest } from './request.ts';
import type { BackgroundTask } from './types.ts';
import { DEFAULT_IMPORT_HANDLER, importForm, importKindOf, type ImportKindName, type ProcessingMode } from './import-form.ts';
import { errorReportPath } from './task-format.ts';

export type ProfileBody = BodyOf<'putProfilesByName'>;
export type PublicProfile = ResponseOf<'getProfiles'>['items'][number];

/** Where an import goes: this sandbox, or a profile's service with the organization to import into there. */
export interface Destination {
  profile: PublicProfile | null;
  /** The organization_uuid sent to the profile's service: the profile's own, or typed here. */
  organizationUuid: string;
}

export const THIS_SANDBOX: Destination = { profile: null, organizationUuid: '' };

export const profilesRequest = typedRequest('get', '/api/profiles');

export function saveProfileRequest(name: string, body: ProfileBody): ApiRequest {
  return typedRequest('put', '/api/profiles/{name}', { params: { path: { name } }, body });
}

export function removeProfileRequest(name: string): ApiRequest {
  return typedRequest('delete', '/api/profiles/{name}', { params: { path: { name } } });
}

/** The local proxy path of `path` (which starts with /api/…) on the profile's service. */
export function remotePath(profile: string, path: string): string {
  return `/api/remote/${encodeURIComponent(profile)}${path}`;
}

/** Where the GUI shows a remote task (a reload keeps it). */
export function remoteTaskPage(profile: string, uuid: string): string {
  return `/remote/${encodeURIComponent(profile)}/tasks/${encodeURIComponent(uuid)}`;
}

export function remoteTasksPage(profile: string): string {
  return `/remote/${encodeURIComponent(profile)}`;
}

export function remoteTaskRequest(profile: string, uuid: string): ApiRequest {
  return { method: 'GET', path: remotePath(profile, `/api/background-tasks/uuid/${encodeURIComponent(uuid)}`) };
}

export function remoteTaskListRequest(
  profile: string,
  query: { organization_uuid: string; page: number; per_page: number; task_type?: string },
): ApiRequest {
  return { method: 'GET', path: remotePath(profile, '/api/background-tasks'), query };
}

/** The remote task's error report (docs/api.md). */
export function remoteErrorReportRequest(profile: string, task: BackgroundTask, format: 'csv' | 'xlsx'): ApiRequest {
  return { method: 'GET', path: remotePath(profile, errorReportPath(task)), query: { format } };
}

/**
 * The import upload to a profile's service, with the same form fields as a local import. A JSON
 * file of a kind that sends it as a body (QR codes: `json_file_as_body`) goes as a JSON array body with processing_mode in the query, as the CLI sends it
 * (the JSON form of that endpoint is an array body).
 */
export function remoteImportRequest(
  profile: string,
  kind: ImportKindName,
  organizationUuid: string,
  mode: ProcessingMode,
  fileName: string,
  handler = DEFAULT_IMPORT_HANDLER,
): ApiRequest {
  const path = remotePath(profile, importKindOf(kind).upload_path);
  if (importKindOf(kind).json_file_as_body && /\.json$/i.test(fileName))
    return { method: 'POST', path, query: { processing_mode: mode }, jsonFileName: fileName };
  return {
    method: 'POST',
    path,
    form: importForm(kind, organizationUuid, mode, fileName, handler),
  };
}

/** What the remote service answered to an import: a background task, or (sync) the result itself. */
export type RemoteImportAnswer =
  | { kind: 'task'; uuid: string }
  /** `uuid` is the task when the service names it (a QR Sandbox does, in X-Background-Task-Uuid). */
  | { kind: 'sync'; body: Record<string, unknown>; uuid: string | null };

export function readImportAnswer(status: number, body: unknown, headers: Headers): RemoteImportAnswer {
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (status === 202 && typeof object.background_task_uuid === 'string') return { kind: 'task', uuid: object.background_task_uuid };
  return { kind: 'sync', body: object, uuid: headers.get('x-background-task-uuid') };
}

/** The counts of a sync answer: its numbers, and the size of its lists of records (e.g. appointment_schedules_upserted). */
export function answerCounts(body: Record<string, unknown>): { key: string; label: string; value: number }[] {
  const counts: { key: string; label: string; value: number }[] = [];
  // {inserted, excluded, excluded_data}: the list of excluded rows is already counted by `excluded`.
  const excludedCounted = typeof body.excluded === 'number';
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'number') counts.push({ key, label: key.replace(/_/g, ' '), value });
    else if (Array.isArray(value) && !(excludedCounted && key.startsWith('excluded_')))
      counts.push({ key, label: key.replace(/_/g, ' '), value: value.length });
  }
  return counts;
}

/**
 * A profile's credential from the form: the key and the secret in their fields, or `key:secret`
 * pasted into the key field (split at the first colon, as the CLI does).
 */
export function splitCredential(
  keyText: string,
  secretText: string,
): { api_key: string; api_secret: string } | { problem: 'key' | 'secret'; message: string } {
  let key = keyText.trim();
  let secret = secretText;
  if (secret === '' && key.includes(':')) {
    secret = key.slice(key.indexOf(':') + 1);
    key = key.slice(0, key.indexOf(':'));
  }
  if (key === '') return { problem: 'key', message: 'Enter the API key, or paste key:secret here.' };
  if (secret === '') return { problem: 'secret', message: 'Enter the API secret (or paste key:secret into the API key field).' };
  return { api_key: key, api_secret: secret };
}

/** What an ApiFailure (api/client.ts) tells about the answer; read by shape so this file stays free of browser code. */
interface AnswerFailure {
  status: number;
  headers: Headers | null;
}

function isAnswerFailure(error: unknown): error is AnswerFailure {
  return error instanceof Error && typeof (error as Partial<AnswerFailure>).status === 'number' && 'headers' in error;
}

/** On a 502 from the proxy: the status the remote service answered (401, 403, a redirect); null when it did not answer. */
export function remoteStatus(error: unknown): number | null {
  if (!isAnswerFailure(error) || error.status !== 502) return null;
  const value = Number(error.headers?.get('x-remote-status'));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** A failed poll that polling again will not mend: a refused credential, a missing task or profile, a bad request. */
export function isFinalFailure(error: unknown): boolean {
  if (!isAnswerFailure(error)) return true;
  if ([400, 401, 403, 404].includes(error.status)) return true;
  const remote = remoteStatus(error);
  return remote !== null && (remote === 401 || remote === 403 || (remote >= 300 && remote < 400));
}
