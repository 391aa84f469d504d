/**
 * Rules of the architecture check about import kinds, read from the registry (server/imports/kinds.ts):
 * - the kind folders are the folders of the entries the registry imports (no list to keep up);
 * - outside its folder and the registry, no file branches on a kind by name: no comparison or
 *   `case` with a kind's id ('qrcodes'), and no task type of a kind ('QR_IMPORT') written out at all.
 *   What differs between kinds is said in the kind's entry and read from the registry
 *   (GET /api/meta for the GUI). A table named like a kind ('qrcodes' in SQL) is not a branch: a
 *   comparison with a table's name says so in a comment on the line before, `kind-names: a table`.
 */
import fs from 'node:fs';
import path from 'node:path';

export const KIND_REGISTRY = 'server/imports/kinds.ts';
/** Where a branch on a kind would be a bug: the server, the GUI and the scripts. */
const SCANNED = ['server', 'renderer/src', 'scripts'];
/** Migrations are never edited (020 gave older handlers the kind they could have); this file names the rule. */
const NOT_SCANNED = ['server/db/migrations/', 'scripts/architecture/kind-names.ts'];

const TABLE_MARK = 'kind-names: a table';

const ENTRY_IMPORT = /\bfrom\s*['"]\.\.\/([^/'"]+)\/[^'"]+['"]/g;

/** The kind folders: each folder outside server/imports/ that the registry imports an entry from ("server/qrcodes/"). */
export function kindFolders(registrySource: string): string[] {
  return [...registrySource.matchAll(ENTRY_IMPORT)].map((match) => `server/${match[1]}/`);
}

export interface KindNames {
  /** Kind ids: 'qrcodes', 'appointments'… */
  ids: readonly string[];
  /** Task types of every kind: 'IMPORT', 'QR_IMPORT'… */
  taskTypes: readonly string[];
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patterns(names: KindNames): { pattern: RegExp; what: (match: RegExpExecArray) => string }[] {
  const ids = names.ids.map(literal).join('|');
  const types = names.taskTypes.map(literal).join('|');
  return [
    {
      pattern: new RegExp(
        `(?:[!=]==?\\s*(['"\`])(${ids})\\1)|(?:(['"\`])(${ids})\\3\\s*[!=]==?)|(?:\\bcase\\s+(['"\`])(${ids})\\5\\s*:)`,
        'g',
      ),
      what: (m) => `branches on the import kind '${m[2] ?? m[4] ?? m[6]}' by name`,
    },
    { pattern: new RegExp(`(['"\`])(${types})\\1`, 'g'), what: (m) => `names the task type '${m[2]}'` },
  ];
}

/** Each line of a file that branches on a kind by name, as "file:line: what". */
export function kindNameFindings(file: string, text: string, names: KindNames): string[] {
  const found: string[] = [];
  const rules = patterns(names);
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line) || lines[i - 1]?.includes(TABLE_MARK)) return;
    for (const { pattern, what } of rules) {
      for (const match of line.matchAll(pattern)) {
        found.push(`${file}:${i + 1} ${what(match as RegExpExecArray)} (say it in the kind's entry and read it from ${KIND_REGISTRY})`);
      }
    }
  });
  return found;
}

function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!entry.isFile() || file.includes('node_modules/') || file.endsWith('.d.ts')) return [];
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [file] : [];
  });
}

/** Every branch on a kind by name in the tree, outside the kind folders and the registry. */
export function kindNameViolations(root: string, names: KindNames, folders: readonly string[]): string[] {
  const exempt = [...folders, ...NOT_SCANNED];
  return SCANNED.flatMap((dir) => sourceFiles(root, dir))
    .filter((file) => file !== KIND_REGISTRY && !exempt.some((prefix) => file.startsWith(prefix)))
    .flatMap((file) => kindNameFindings(file, fs.readFileSync(path.join(root, file), 'utf8'), names));
}

/** The names from the registry itself. */
export async function registryNames(): Promise<KindNames> {
  const { importKinds, importKindIds } = await import('../../server/imports/kinds.ts');
  return { ids: [...importKindIds], taskTypes: Object.values(importKinds).flatMap((entry) => entry.tasks.map((task) => task.type)) };
}
