import fs from 'node:fs';
import path from 'node:path';
import { importKinds } from '../imports/kinds.ts';
import type { ImportKindId } from '../imports/schemas.ts';
import type { TaskAccepted } from '../tasks/schemas.ts';
import { UPLOAD_TIMEOUT_MS, type ServiceClient } from './service-client.ts';

export interface ImportRequest {
  kind: ImportKindId;
  file: string;
  organizationUuid: string;
  processingMode: 'background' | 'sync';
  orgIdentifier?: string;
  dryRun?: boolean;
}

/** A sync answer's task is named by its X-Background-Task-Uuid header (this sandbox sends it; null when the service does not). */
export type ImportAnswer = { accepted: TaskAccepted } | { result: Record<string, unknown>; taskUuid: string | null };

/**
 * Sends an import file the way a client of the real service does, with the service's fields only:
 * a multipart upload (`file`, `organization_uuid`, `processing_mode`, and `org_identifier` when one
 * is named); a JSON file of a kind whose entry says `jsonFileAsBody` (QR codes) is sent as a JSON array body with processing_mode in the query
 * (docs/imports.md), since that endpoint's JSON form is an array. `dry_run` (the sandbox's own) is
 * sent only to a sandbox: the CLI refuses it with a profile.
 */
export async function uploadImport(client: ServiceClient, request: ImportRequest): Promise<ImportAnswer> {
  const entry = importKinds[request.kind];
  const endpoint = entry.paths.upload;
  const extension = path.extname(request.file).toLowerCase();
  const query = new URLSearchParams({ processing_mode: request.processingMode });
  if (request.dryRun) query.set('dry_run', 'true');
  let res: Response;
  if (entry.jsonFileAsBody && extension === '.json') {
    res = await client.request(
      `${endpoint}?${query}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: await fs.promises.readFile(request.file),
      },
      UPLOAD_TIMEOUT_MS,
    );
  } else {
    const form = new FormData();
    form.set('file', await fs.openAsBlob(request.file), path.basename(request.file));
    form.set('organization_uuid', request.organizationUuid);
    form.set('processing_mode', request.processingMode);
    if (request.orgIdentifier) form.set('org_identifier', request.orgIdentifier);
    if (request.dryRun) form.set('dry_run', 'true');
    res = await client.request(endpoint, { method: 'POST', body: form }, UPLOAD_TIMEOUT_MS);
  }
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status === 202 && typeof body.background_task_uuid === 'string') return { accepted: body as unknown as TaskAccepted };
  return { result: body, taskUuid: res.headers.get('x-background-task-uuid') };
}

/** Downloads a task's error report next to the input file; returns its path. */
export async function downloadErrorReport(client: ServiceClient, kind: ImportKindId, taskUuid: string, inputFile: string): Promise<string> {
  const res = await client.request(importKinds[kind].paths.errorReport.replace('{background_task_uuid}', taskUuid));
  const disposition = res.headers.get('content-disposition') ?? '';
  const type = res.headers.get('content-type') ?? '';
  const extension = /\.xlsx/i.test(disposition) || type.includes('spreadsheetml') ? '.xlsx' : '.csv';
  const parsed = path.parse(inputFile);
  const target = path.join(parsed.dir, `${parsed.name}.errors${extension}`);
  await fs.promises.writeFile(target, Buffer.from(await res.arrayBuffer()));
  return target;
}
