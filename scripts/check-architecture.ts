/**
 * The architecture check of npm run lint: reads every import of server/, renderer/src/, common/, main/, preload/
 * and bin/ (static imports, re-exports, side-effect imports such as a stylesheet's and import() of a literal path,
 * type-only ones included) and fails on
 * - an import circle;
 * - a renderer file importing server source (the GUI is a client of the API);
 * - a common/ file (code two sides run: the server, the GUI, the builds) importing anything outside common/;
 * - a capability folder importing the composition root (server/app.ts, server/server.ts): only the
 *   command line and the desktop app start the server;
 * - the import engine (server/imports/) importing an import kind, except through its registry (the
 *   kind folders are read from the registry: every kind it lists is covered);
 * - a branch on an import kind by name outside its folder and the registry (architecture/kind-names.ts).
 * - a capability's logic importing the whole server context (architecture/context-imports.ts).
 * Usage: node scripts/check-architecture.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contextImportViolations } from './architecture/context-imports.ts';
import { KIND_REGISTRY, kindFolders, kindNameViolations, registryNames } from './architecture/kind-names.ts';
import { pageImportViolations } from './architecture/page-imports.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AREAS = ['server', 'renderer/src', 'common', 'main', 'preload', 'bin'];
const COMPOSITION_ROOT = new Set(['server/app.ts', 'server/server.ts']);
const MAY_START_THE_SERVER = ['server/cli/', 'main/', 'bin/'];
/** Every kind's folder, as the registry names them. */
export const KIND_FOLDERS = kindFolders(fs.readFileSync(path.join(ROOT, KIND_REGISTRY), 'utf8'));
/**
 * Imports known to break a rule. A new one fails the check; one that no longer occurs fails it
 * too, so the list only shrinks. Empty since the import-kind registry serves what the engine needs.
 */
const KNOWN: ReadonlySet<string> = new Set<string>([]);

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!entry.isFile() || file.includes('node_modules/') || file.endsWith('.d.ts')) return [];
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [file] : [];
  });
}

/** The files `text` (the source of `file`) imports by a relative path, as paths from the repository's root. */
export function importTargets(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] ?? match[2] ?? match[3] ?? '')),
  );
}

export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of AREAS.flatMap(sourceFiles)) graph.set(file, importTargets(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

export function violations(graph: Map<string, string[]>): string[] {
  const found = circles(graph).map((component) => `import circle: ${component.join(' -> ')}`);
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (file.startsWith('renderer/') && target.startsWith('server/')) found.push(`${file} imports server source ${target}`);
      if (file.startsWith('common/') && !target.startsWith('common/')) found.push(`${file} imports ${target}, outside common/`);
      if (COMPOSITION_ROOT.has(target) && !COMPOSITION_ROOT.has(file) && !MAY_START_THE_SERVER.some((dir) => file.startsWith(dir))) {
        found.push(`${file} imports the composition root ${target}`);
      }
      if (file.startsWith('server/imports/') && file !== KIND_REGISTRY && KIND_FOLDERS.some((dir) => target.startsWith(dir))) {
        found.push(`${file} imports the import kind ${target} (go through ${KIND_REGISTRY})`);
      }
    }
  }
  found.push(...pageImportViolations(graph));
  found.push(...contextImportViolations(graph));
  return found;
}

/** What the check reports: every violation not known, and every known one that is gone. */
export function problems(found: readonly string[], known: ReadonlySet<string> = KNOWN): string[] {
  const seen = new Set(found);
  return [
    ...found.filter((line) => !known.has(line)),
    ...[...known].filter((line) => !seen.has(line)).map((line) => `fixed, remove from KNOWN: ${line}`),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = problems([
    ...violations(importGraph()),
    ...(await import('./architecture/event-names.ts')).eventNameProblems(),
    ...kindNameViolations(ROOT, await registryNames(), KIND_FOLDERS),
  ]);
  for (const line of found) console.error(line);
  console.log(
    found.length === 0
      ? `Architecture check: no circles, no forbidden imports, no branch on an import kind by name (kinds: ${KIND_FOLDERS.join(', ')}).`
      : `Architecture check: ${found.length} problems.`,
  );
  process.exit(found.length === 0 ? 0 : 1);
}
