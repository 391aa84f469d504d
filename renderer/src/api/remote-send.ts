import { send } from './client.ts';
import type { ApiRequest, UploadFile, UploadProgress } from './request.ts';
import { upload } from './upload.ts';
import type { ImportKindName, ProcessingMode } from './import-api.ts';
import { readImportAnswer, remoteImportRequest, type RemoteImportAnswer } from './remote-api.ts';

/** A JSON file's bytes as the request body (no upload progress: fetch does not report it). */
async function sendJsonFile(request: ApiRequest, file: UploadFile): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await send(request, { jsonFile: file.blob });
  return { status: response.status, body: await response.json().catch(() => null), headers: response.headers };
}

/** Sends an import file to a profile's service through the local proxy. */
export async function sendRemoteImport(
  profile: string,
  kind: ImportKindName,
  organizationUuid: string,
  mode: ProcessingMode,
  file: UploadFile,
  onProgress: (progress: UploadProgress) => void,
  handler?: string,
): Promise<RemoteImportAnswer> {
  const request = remoteImportRequest(profile, kind, organizationUuid, mode, file.name, handler);
  const answer = request.jsonFileName ? await sendJsonFile(request, file) : await upload<unknown>(request, file, { onProgress });
  return readImportAnswer(answer.status, answer.body, answer.headers);
}
