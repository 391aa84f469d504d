/**
 * npm run api-types: writes the renderer's API types (renderer/src/api/schema.d.ts) from the
 * OpenAPI document of an in-process server, with the project's openapi-typescript.
 * Usage: node scripts/api-types.ts [output file]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SCHEMA_FILE = path.join(ROOT, 'renderer/src/api/schema.d.ts');
// openapi-typescript needs the TypeScript 5 compiler API; tools/openapi-typescript holds it.
const OPENAPI_TYPESCRIPT = path.join(ROOT, 'node_modules/qr-sandbox-openapi-typescript/node_modules/openapi-typescript/bin/cli.js');

async function openApiDocument(dataDir: string): Promise<string> {
  const server = await startServer({ port: 0, dataDir, logLevel: 'silent' });
  try {
    return await (await fetch(`${server.url}/api/openapi.json`)).text();
  } finally {
    await server.close();
  }
}

export async function writeApiTypes(outFile: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-api-types-'));
  try {
    const documentFile = path.join(dir, 'openapi.json');
    fs.writeFileSync(documentFile, await openApiDocument(path.join(dir, 'data')));
    const types = execFileSync(process.execPath, [OPENAPI_TYPESCRIPT, documentFile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    // Unchanged types leave the file alone: a rewrite would make the GUI's build stale (renderer/scripts/build.ts), and the next serve rebuild it.
    if (!fs.existsSync(outFile) || fs.readFileSync(outFile, 'utf8') !== types) fs.writeFileSync(outFile, types);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await writeApiTypes(path.resolve(process.argv[2] ?? SCHEMA_FILE));
