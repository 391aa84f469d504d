/**
 * Small interfaces instead of the whole server context: only the composition (server/app.ts,
 * server/server.ts, server/lifecycle/, server/http/) and route files (`*routes.ts`, `*-route.ts`)
 * import server/context.ts. A capability's logic declares the parts it reads ({ db, config, live,
 * outbox… }) and its routes pass the context down as those, so it imports what it uses and no
 * import circle can form through the context.
 */
const CONTEXT = 'server/context.ts';
const COMPOSITION = ['server/app.ts', 'server/server.ts', 'server/lifecycle/', 'server/http/'];
const ROUTE_FILE = /^server\/.*(?:routes|-route)\.ts$/;
/**
 * Logic files that still import the context, being reworked apart. This list must only shrink: a
 * file that no longer imports the context fails the check until it is removed from here.
 */
const EXCEPTIONS: ReadonlySet<string> = new Set(['server/import-drafts/download.ts', 'server/import-drafts/drafts.ts']);

const mayImportContext = (file: string) => ROUTE_FILE.test(file) || COMPOSITION.some((place) => file === place || file.startsWith(place));

export function contextImportViolations(
  graph: ReadonlyMap<string, readonly string[]>,
  exceptions: ReadonlySet<string> = EXCEPTIONS,
): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (!targets.includes(CONTEXT) || mayImportContext(file) || exceptions.has(file)) continue;
    found.push(
      `${file} imports the whole server context ${CONTEXT} (declare the parts it uses as a small interface; only routes and the composition import the context)`,
    );
  }
  // Stale exceptions are judged on a tree that has the context file (the real one), not on a made-up graph.
  if (graph.has(CONTEXT)) {
    for (const file of exceptions) {
      if (!graph.get(file)?.includes(CONTEXT)) {
        found.push(`${file} no longer imports ${CONTEXT}: remove it from EXCEPTIONS in scripts/architecture/context-imports.ts`);
      }
    }
  }
  return found;
}
