import { appointmentImportEntry } from '../appointments/import-entry.ts';
import { qrCodeImportEntry } from '../qrcodes/import-entry.ts';
import type { ImportKindEntry } from './kind-entry.ts';
import type { ImportKind } from './kind.ts';
import { importKindIds, type ImportKindId } from './schemas.ts';

/**
 * The import-kind registry: every kind by its stable id (what import_jobs.kind stores, what
 * workers are told to load, the preview's `kind` field). A new kind is its id in importKindIds
 * (schemas.ts), an entry in its own folder (kind-entry.ts says what one holds) and one line here.
 * The engine knows kinds only through this file.
 */
export const importKinds: Readonly<Record<ImportKindId, ImportKindEntry>> = {
  qrcodes: qrCodeImportEntry,
  appointments: appointmentImportEntry,
};

export function isImportKindId(id: string): id is ImportKindId {
  return Object.hasOwn(importKinds, id);
}

/** The kind of an id, as stored in a job; an id this server does not know (a row from elsewhere) is an error naming it. */
export async function loadKind(id: string): Promise<ImportKind> {
  if (!isImportKindId(id)) throw new Error(`Unknown import kind "${id}": this server imports ${importKindIds.join(' and ')}.`);
  return importKinds[id].load();
}
