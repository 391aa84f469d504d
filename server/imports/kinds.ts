import type { ImportKind } from './kind.ts';
import { importKindIds, type ImportKindId } from './schemas.ts';

/**
 * Every import kind by its stable id: what import_jobs.kind stores, what workers are told to
 * load, and the preview's `kind` field. Each loader imports its kind's module on first use, so a
 * worker process loads only the kinds it runs. A new kind is its id in importKindIds (schemas.ts,
 * shared with the renderer) and one line here.
 */
const loaders: Record<ImportKindId, () => Promise<ImportKind>> = {
  qrcodes: async () => (await import('../qrcodes/import-kind.ts')).qrCodeImportKind as ImportKind,
  appointments: async () => (await import('../appointments/import-kind.ts')).appointmentImportKind as ImportKind,
};

export function isImportKindId(id: string): id is ImportKindId {
  return Object.hasOwn(loaders, id);
}

/** The kind of an id, as stored in a job; an id this server does not know (a row from elsewhere) is an error naming it. */
export async function loadKind(id: string): Promise<ImportKind> {
  if (!isImportKindId(id)) throw new Error(`Unknown import kind "${id}": this server imports ${importKindIds.join(' and ')}.`);
  return loaders[id]();
}
