/**
 * The URL of another module of this code base, named by its source path, e.g.
 * `new Worker(moduleUrl('./worker.ts', import.meta.url))`. From the source tree that is the .ts
 * file itself; in the compiled desktop build (dist/app/, where the caller is a .js file) it is the
 * compiled .js file next to it, because the compiler rewrites import statements but not strings.
 */
export function moduleUrl(sourcePath: string, base: string): URL {
  const url = new URL(sourcePath, base);
  if (new URL(base).pathname.endsWith('.js') && url.pathname.endsWith('.ts')) {
    url.pathname = `${url.pathname.slice(0, -'.ts'.length)}.js`;
  }
  return url;
}
