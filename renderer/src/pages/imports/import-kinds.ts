/** The two import kinds and their endpoints: plain data, shared by the Imports page and remote mode (and testable under Node). */

import type { MultipartForm } from '../../api/request.ts';
import type { paths } from '../../api/schema.d.ts';
import type { AppMeta } from '../../api/types.ts';

export type ImportKindName = AppMeta['import_kinds'][number];
export type ProcessingMode = 'background' | 'sync';

export interface ImportKindInfo {
  label: string;
  /** Where files of this kind are imported (multipart). */
  path: keyof paths;
  template: keyof paths;
  templateName: string;
}

export const IMPORT_KINDS: Record<ImportKindName, ImportKindInfo> = {
  qrcodes: {
    label: 'QR code addresses',
    path: '/api/qrcodes/bulk',
    template: '/api/qrcodes/bulk/template',
    templateName: 'qr-code-import-template.csv',
  },
  appointments: {
    label: 'Appointments',
    path: '/api/appointment_schedule/bulk',
    template: '/api/appointment_schedule/bulk/template',
    templateName: 'appointment-import-template.csv',
  },
};

/** The built-in import handler: the template's column names (no org_identifier sent). */
export const DEFAULT_IMPORT_HANDLER = 'default';

/** The org_identifier form field: only appointment imports read one, and only a saved handler needs it. */
export function handlerField(kind: ImportKindName, handler: string): Record<string, string> {
  return kind === 'appointments' && handler !== DEFAULT_IMPORT_HANDLER ? { org_identifier: handler } : {};
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
