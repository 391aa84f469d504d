/** The form of an import upload, shared by the Imports page and remote mode (testable under Node); the kinds come from the server (api/import-kinds.ts). */

import { importKindOf, type ImportKindName } from './import-kinds.ts';
import type { MultipartForm } from './request.ts';

export type ProcessingMode = 'background' | 'sync';
export { firstImportKind, importKindOf, importKinds, type ImportKindName } from './import-kinds.ts';

/** The built-in import handler: the template's column names (no org_identifier sent). */
export const DEFAULT_IMPORT_HANDLER = 'default';

/** The org_identifier form field: only kinds that use import handlers read one (appointments), and only a saved handler needs it. */
export function handlerField(kind: ImportKindName, handler: string): Record<string, string> {
  return importKindOf(kind).uses_import_handlers && handler !== DEFAULT_IMPORT_HANDLER ? { org_identifier: handler } : {};
}

/** The multipart form of an import upload: the file and the fields every import sends, plus `extra`. */
export function importForm(
  kind: ImportKindName,
  organizationUuid: string,
  mode: ProcessingMode,
  fileName: string,
  handler: string,
  extra: Record<string, string> = {},
): MultipartForm {
  return {
    fields: { organization_uuid: organizationUuid, processing_mode: mode, ...handlerField(kind, handler), ...extra },
    fileField: 'file',
    fileName,
  };
}
