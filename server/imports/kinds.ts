import { appointmentImportEntry } from '../appointments/import-entry.ts';
import { qrCodeImportEntry } from '../qrcodes/import-entry.ts';
import { serviceImportEntry } from '../services/import-entry.ts';
import { type ImportKindEntry, type ImportTaskEntry, taskTypeFor } from './kind-entry.ts';
import type { ImportKind, ImportSource } from './kind.ts';

/**
 * The import-kind registry: every kind by its stable id (what import_jobs.kind stores, what
 * workers are told to load, the preview's `kind` field), in the order clients list them. A new kind
 * is an entry in its own folder (kind-entry.ts says what one holds) and one line here. The rest of
 * the server, the GUI (GET /api/meta) and the checks (scripts/architecture/) know kinds only through this file.
 */
const entries = [qrCodeImportEntry, appointmentImportEntry, serviceImportEntry] as const;

export type ImportKindId = (typeof entries)[number]['id'];
export const importKindIds = entries.map((entry) => entry.id) as unknown as readonly [ImportKindId, ...ImportKindId[]];
export const importKinds = Object.fromEntries(entries.map((entry) => [entry.id, entry])) as unknown as Readonly<
  Record<ImportKindId, ImportKindEntry<ImportKindId>>
>;

export function isImportKindId(id: string): id is ImportKindId {
  return Object.hasOwn(importKinds, id);
}

/** Every kind's task types, in the registry's order. */
export const importTasks: readonly (ImportTaskEntry & { kind: ImportKindId })[] = Object.values(importKinds).flatMap((entry) =>
  entry.tasks.map((task) => ({ ...task, kind: entry.id })),
);

/** The task type an import of this kind from `source` creates. */
export function taskTypeOf(id: string, source: ImportSource): string {
  if (!isImportKindId(id)) throw new Error(unknownKind(id));
  return taskTypeFor(importKinds[id], source);
}

/** The ids in a sentence: "qrcodes, appointments and services" (or "… or services"). */
export const importKindIdsInWords = (last: 'and' | 'or', prefix = ''): string => {
  const ids = importKindIds.map((id) => `${prefix}${id}`);
  return `${ids.slice(0, -1).join(', ')} ${last} ${ids.at(-1)}`;
};

const unknownKind = (id: string) => `Unknown import kind "${id}": this server imports ${importKindIdsInWords('and')}.`;

/** The kind of an id, as stored in a job; an id this server does not know (a row from elsewhere) is an error naming it. */
export async function loadKind(id: string): Promise<ImportKind> {
  if (!isImportKindId(id)) throw new Error(unknownKind(id));
  return importKinds[id].load();
}
