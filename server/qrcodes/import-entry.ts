import type { ImportKind } from '../imports/kind.ts';
import { defineImportKind, type ResultWord } from '../imports/kind-entry.ts';
import { QR_IMPORT_COLUMNS } from './import-row.ts';
import { qrCodeFileImportResultsSchema, qrCodeJsonImportResultsSchema } from './import-results.ts';

const WARNED: ResultWord = { key: 'warned', label: 'imported with a warning' };

/** QR code addresses in the import-kind registry (imports/kinds.ts); import-kind.ts is the kind itself. */
export const qrCodeImportEntry = defineImportKind({
  id: 'qrcodes',
  label: 'QR code addresses',
  inASentence: 'QR code addresses',
  fileNoun: 'a QR code addresses file',
  checks: 'every row checked, addresses located',
  tasks: [
    {
      type: 'IMPORT',
      source: 'json',
      label: 'QR code import (JSON)',
      results: qrCodeJsonImportResultsSchema,
      schemaId: 'QrCodeJsonImportTask',
      description: 'A JSON bulk import of QR code addresses (POST /api/qrcodes/bulk with a JSON array)',
      counters: [
        { key: 'qr_code_inserted', label: 'inserted' },
        { key: 'qr_code_updated', label: 'updated' },
        { key: 'qr_code_restored', label: 'restored' },
        { key: 'excluded_count', label: 'excluded', always: true },
        { key: 'qr_code_tags_created', label: 'tags created' },
        WARNED,
      ],
      summary: [
        { key: 'qr_code_inserted', label: 'inserted', always: true },
        { key: 'qr_code_updated', label: 'updated' },
        { key: 'qr_code_restored', label: 'restored' },
        { key: 'excluded_count', label: 'excluded', always: true },
      ],
      written: ['qr_code_inserted', 'qr_code_updated', 'qr_code_restored'],
      excludedCount: 'excluded_count',
      excludedList: 'excluded_qr_codes',
    },
    {
      type: 'QR_IMPORT',
      source: 'file',
      label: 'QR code file import',
      results: qrCodeFileImportResultsSchema,
      schemaId: 'QrCodeFileImportTask',
      description: 'A file import of QR code addresses (POST /api/qrcodes/bulk or /bulk-import with a file)',
      counters: [
        { key: 'inserted', label: 'inserted' },
        { key: 'updated', label: 'updated' },
        { key: 'restored', label: 'restored' },
        { key: 'excluded', label: 'excluded', always: true },
        { key: 'tags_created', label: 'tags created' },
        WARNED,
      ],
      summary: [
        { key: 'inserted', label: 'inserted', always: true },
        { key: 'updated', label: 'updated' },
        { key: 'restored', label: 'restored' },
        { key: 'excluded', label: 'excluded', always: true },
      ],
      written: ['inserted', 'updated', 'restored'],
      excludedCount: 'excluded',
      excludedList: 'excluded_data',
    },
  ],
  paths: {
    upload: '/api/qrcodes/bulk',
    template: '/api/qrcodes/bulk/template',
    errorReport: '/api/qrcodes/bulk/{background_task_uuid}/errors',
  },
  templateFileName: 'qr-code-import-template.csv',
  usesHandlers: false,
  handlerColumns: QR_IMPORT_COLUMNS,
  handlerColumnsNoun: 'QR code import columns',
  jsonFileAsBody: true,
  mapsResults: true,
  records: { guiPath: '/qrcodes', label: 'View the QR codes' },
  // Rows append (uuid7 keys, rising rowids; the name-and-location index is read only for keys the
  // Bloom filter may hold): 1M of them took the same time with 4 MB as with 16 or 64 MB, and 8 MB
  // instead of 32 left the worker 24 MB smaller at 200,000 rows.
  workerCacheMb: 8,
  previewOptions: () => ({}),
  backgroundOptions: (options) => options,
  load: async () => (await import('./import-kind.ts')).qrCodeImportKind as ImportKind,
});
