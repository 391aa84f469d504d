import type { AppMeta } from './types.ts';

/** An import kind as the server describes it (GET /api/meta `kinds`): label, endpoints, template name, columns. */
export type ImportKindMeta = AppMeta['kinds'][number];
export type ImportKindName = ImportKindMeta['id'];

let known = new Map<ImportKindName, ImportKindMeta>();

/** Keeps the server's import kinds (meta.ts does, whenever it loads GET /api/meta). */
export function rememberImportKinds(kinds: readonly ImportKindMeta[]): void {
  known = new Map(kinds.map((kind) => [kind.id, kind]));
}

/** The server's description of a kind; the Shell loads it before any page shows. */
export function importKindOf(kind: ImportKindName): ImportKindMeta {
  const found = known.get(kind);
  if (!found) throw new Error(`This server's import kinds are not loaded yet (GET /api/meta); try again in a moment.`);
  return found;
}

/** Every kind the server imports, in its order. */
export const importKinds = (): ImportKindMeta[] => [...known.values()];
