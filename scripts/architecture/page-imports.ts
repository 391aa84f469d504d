/**
 * The renderer by feature: a page folder (renderer/src/pages/<page>/) imports no other page's folder,
 * and outside the page folders only the route table (renderer/src/routes.tsx) imports a page. A piece
 * two places use belongs in components/ (UI), api/ (the API's shapes, requests and their words) or
 * live/ (what follows live events). Stylesheets count too (`import './x.css'`): a page's CSS is for
 * its page; rules two places use go in renderer/src/styles.css or next to their component.
 */
const PAGES = 'renderer/src/pages/';
const ROUTE_TABLE = 'renderer/src/routes.tsx';

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
    if (!file.startsWith('renderer/') || file === ROUTE_TABLE) continue;
    const page = pageOf(file);
    for (const target of targets) {
      const targetPage = pageOf(target);
      if (targetPage === null || targetPage === page) continue;
      found.push(
        target.endsWith('.css')
          ? `${file} imports ${target}, a page's stylesheet (shared rules go in renderer/src/styles.css or next to their component in renderer/src/components/)`
          : page === null
            ? `${file} imports the page ${target} (only ${ROUTE_TABLE} imports pages)`
            : `${file} imports ${target}, another page's folder (shared pieces go in renderer/src/components/, api/ or live/)`,
      );
    }
  }
  return found;
}
