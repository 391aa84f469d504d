import type { UploadFile, UploadProgress } from './request.ts';
import type { PickedFile } from '../../../preload/api.ts';
import { type ApiRequest, download, send } from './client.ts';
import type { BackgroundTask, CheckAnswer, ImportPreview } from './types.ts';
import { upload } from './upload.ts';
import { desktopBridge } from '../desktop/bridge.ts';
import { errorReportPath } from './task-format.ts';
import { importTaskOf } from './import-kinds.ts';
import { DEFAULT_IMPORT_HANDLER, handlerField, importKindOf, type ImportKindName, importForm, type ProcessingMode } from './import-form.ts';

export {
  DEFAULT_IMPORT_HANDLER,
  firstImportKind,
  importKindOf,
  importKinds,
  type ImportKindName,
  type ProcessingMode,
} from './import-form.ts';

/** CSV previews send only the start of a big file: the server reads just the first rows anyway. */
const PREVIEW_SLICE_BYTES = 1 << 20;

export function previewRequest(
  kind: ImportKindName,
  organizationUuid: string,
  fileName: string,
  handler = DEFAULT_IMPORT_HANDLER,
  layout: Record<string, string> = {},
): ApiRequest {
  return {
    method: 'POST',
    path: '/api/imports/preview',
    form: { fields: { kind, organization_uuid: organizationUuid, ...handlerField(kind, handler), ...layout }, fileField: 'file', fileName },
  };
}

/**
 * `fixesTask`: the import whose error report this file is (fixed); the new task links back to it.
 * `layout`: the sheet, header row, column mapping and date orders chosen (file-layout.ts).
 */
export function importRequest(
  kind: ImportKindName,
  organizationUuid: string,
  mode: ProcessingMode,
  fileName: string,
  handler = DEFAULT_IMPORT_HANDLER,
  fixesTask?: string,
  layout: Record<string, string> = {},
): ApiRequest {
  return {
    method: 'POST',
    path: importKindOf(kind).upload_path,
    form: importForm(kind, organizationUuid, mode, fileName, handler, { ...layout, ...(fixesTask ? { fixes_task_uuid: fixesTask } : {}) }),
  };
}

/** The same request with dry_run: the server runs the whole import, writes nothing and answers what it would give. */
export function dryRun(request: ApiRequest): ApiRequest {
  return request.form ? { ...request, form: { ...request.form, fields: { ...request.form.fields, dry_run: 'true' } } } : request;
}

/** Sends `request` (an import of `file`) as a dry run: what the import would give. */
export async function checkImport(
  request: ApiRequest,
  file: UploadFile,
  onProgress: (progress: UploadProgress) => void,
): Promise<CheckAnswer> {
  return (await upload<CheckAnswer>(dryRun(request), file, { onProgress })).body;
}

/** The template; for appointments with a saved handler, its columns carry that handler's titles. */
export function templateRequest(kind: ImportKindName, handler = DEFAULT_IMPORT_HANDLER): ApiRequest {
  return { method: 'GET', path: importKindOf(kind).template_path, query: handlerField(kind, handler) };
}

export async function previewFile(
  kind: ImportKindName,
  organizationUuid: string,
  file: UploadFile,
  handler = DEFAULT_IMPORT_HANDLER,
  layout: Record<string, string> = {},
): Promise<ImportPreview> {
  const isCsv = /\.(csv|txt|tsv)$/i.test(file.name);
  const blob = isCsv && file.blob.size > PREVIEW_SLICE_BYTES ? file.blob.slice(0, PREVIEW_SLICE_BYTES) : file.blob;
  const answer = await upload<ImportPreview>(previewRequest(kind, organizationUuid, file.name, handler, layout), { name: file.name, blob });
  return answer.body;
}

/** Sends the file; resolves to the import's task uuid (sync answers carry it in X-Background-Task-Uuid). */
export async function sendImport(
  kind: ImportKindName,
  organizationUuid: string,
  mode: ProcessingMode,
  file: UploadFile,
  onProgress: (progress: UploadProgress) => void,
  handler = DEFAULT_IMPORT_HANDLER,
  fixesTask?: string,
  layout: Record<string, string> = {},
): Promise<string> {
  const answer = await upload<{ background_task_uuid?: string }>(
    importRequest(kind, organizationUuid, mode, file.name, handler, fixesTask, layout),
    file,
    { onProgress },
  );
  const uuid = answer.body.background_task_uuid ?? answer.headers.get('x-background-task-uuid');
  if (!uuid) throw new Error('The server accepted the import but did not say which task it is.');
  return uuid;
}

export function fromPickedFile(picked: PickedFile): UploadFile {
  return { name: picked.name, blob: new Blob([picked.data as Uint8Array<ArrayBuffer>], { type: picked.type }) };
}

/** Saves an attachment: the desktop app's save dialog when it is there, the browser's download otherwise. */
export async function saveAttachment(request: ApiRequest, fallbackName: string): Promise<string | null> {
  const bridge = desktopBridge();
  if (!bridge) return download(request, fallbackName);
  const response = await send(request, { accept: '*/*' });
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? fallbackName;
  const saved = await bridge.saveFile({ suggestedName: decodeURIComponent(name), data: new Uint8Array(await response.arrayBuffer()) });
  return saved?.path ?? null;
}

export function errorReportRequest(task: BackgroundTask, format: 'csv' | 'xlsx'): ApiRequest {
  return { method: 'GET', path: errorReportPath(task), query: { format } };
}

/** The import kind a task belongs to, for re-importing its fixed error report. */
export function taskImportKind(task: Pick<BackgroundTask, 'task_type'>): ImportKindName | null {
  return importTaskOf(task.task_type)?.kind ?? null;
}

/** Whether a task's results have located addresses a map can show (the kind says: GET /api/meta `maps_results`). */
export function mapsResults(task: Pick<BackgroundTask, 'task_type'>): boolean {
  const kind = taskImportKind(task);
  return kind !== null && importKindOf(kind).maps_results;
}

/** The import handler (org_identifier) an appointment import task ran with, from its metadata: a fixed file goes back through the same one. */
export function taskImportHandler(task: BackgroundTask): string {
  const slug = task.metadata?.org_identifier;
  return typeof slug === 'string' && slug !== '' ? slug : DEFAULT_IMPORT_HANDLER;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
