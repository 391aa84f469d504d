import type { ImportKind } from '../imports/kind.ts';
import type { ImportKindEntry } from '../imports/kind-entry.ts';

/** QR code addresses in the import-kind registry (imports/kinds.ts); import-kind.ts is the kind itself. */
export const qrCodeImportEntry: ImportKindEntry = {
  id: 'qrcodes',
  label: 'QR code addresses',
  taskTypes: ['IMPORT', 'QR_IMPORT'],
  paths: {
    upload: '/api/qrcodes/bulk',
    template: '/api/qrcodes/bulk/template',
    errorReport: '/api/qrcodes/bulk/{background_task_uuid}/errors',
  },
  templateFileName: 'qr-code-import-template.csv',
  usesHandlers: false,
  previewOptions: () => ({}),
  backgroundOptions: (options) => options,
  load: async () => (await import('./import-kind.ts')).qrCodeImportKind as ImportKind,
};
