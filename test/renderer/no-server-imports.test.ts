import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const RENDERER = path.resolve(import.meta.dirname, '../../renderer');
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(file);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [file] : [];
  });
}

it('no renderer file imports server source: the renderer knows the server only through its API', () => {
  const serverDir = path.resolve(RENDERER, '../server');
  const offending = sourceFiles(RENDERER).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2] ?? '')
      .filter((specifier) => specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(serverDir + path.sep))
      .map((specifier) => `${path.relative(RENDERER, file)}: ${specifier}`),
  );
  assert.deepEqual(offending, []);
});
