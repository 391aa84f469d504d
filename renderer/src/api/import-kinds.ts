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

/** A task type as the server describes it (GET /api/meta `kinds[].tasks`), with the kind that creates it. */
export type ImportTaskMeta = ImportKindMeta['tasks'][number] & { kind: ImportKindName };

/** The task type and kind of a task, for its words, counts and error report; undefined for a type this server does not name. */
export function importTaskOf(taskType: string): ImportTaskMeta | undefined {
  for (const kind of known.values()) {
    const task = kind.tasks.find((t) => t.type === taskType);
    if (task) return { ...task, kind: kind.id };
  }
  return undefined;
}

/** Every task type of every kind, in the server's order. */
export const importTasks = (): ImportTaskMeta[] => [...known.values()].flatMap((kind) => kind.tasks.map((t) => ({ ...t, kind: kind.id })));

/** The task type a file import of the kind creates (a dry run's answer is read as one). */
export function fileTaskType(kind: ImportKindName): string {
  const tasks = importKindOf(kind).tasks;
  return (tasks.find((t) => t.source === 'file') ?? tasks.find((t) => t.source === 'any') ?? tasks[0])?.type ?? '';
}

/** The kind a form starts with: the server's first. */
export function firstImportKind(): ImportKindName {
  const [first] = known.keys();
  if (first === undefined) throw new Error(`This server's import kinds are not loaded yet (GET /api/meta); try again in a moment.`);
  return first;
}
