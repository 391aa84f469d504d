/**
 * The renderer by feature: a page folder (renderer/src/pages/<page>/) imports no other page's folder,
 * and the shared folders (renderer/src/api/, renderer/src/components/) import no page. A piece two
 * pages use belongs in components/ (UI) or api/ (the API's shapes, requests and their words).
 */
const PAGES = 'renderer/src/pages/';
const SHARED = ['renderer/src/api/', 'renderer/src/components/'];

/** The page folder a file is in ("tasks" for renderer/src/pages/tasks/TaskPage.tsx), or null. */
function pageOf(file: string): string | null {
  if (!file.startsWith(PAGES)) return null;
  const rest = file.slice(PAGES.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? null : rest.slice(0, slash);
}

export function pageImportViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const page = pageOf(file);
    const shared = SHARED.some((dir) => file.startsWith(dir));
    for (const target of targets) {
      const targetPage = pageOf(target);
      if (targetPage === null) continue;
      if (page !== null && page !== targetPage) {
        found.push(`${file} imports ${target}, another page's folder (shared pieces go in renderer/src/components/ or renderer/src/api/)`);
      }
      if (shared) found.push(`${file} imports the page ${target} (components/ and api/ import no page)`);
    }
  }
  return found;
}
