import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KIND_FOLDERS, violations } from '../../scripts/check-architecture.ts';
import { kindFolders, kindNameFindings, kindNameViolations, registryNames } from '../../scripts/architecture/kind-names.ts';
import { importKinds } from '../../server/imports/kinds.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const names = { ids: ['qrcodes', 'parcels'], taskTypes: ['QR_IMPORT', 'PARCEL_IMPORT'] };

describe('the architecture check on import kinds', () => {
  it('refuses a branch on a kind by name: a comparison or case with its id, its task type written out', () => {
    const snippet = [
      "if (kind === 'parcels') return 'a parcels file';",
      "const label = 'qrcodes' !== kind ? 'other' : 'QR codes';",
      "switch (kind) { case 'parcels': break; }",
      "const type = source === 'json' ? 'IMPORT' : 'QR_IMPORT';",
      "await trx.deleteFrom('qrcodes').where('organization_uuid', '=', org).execute();",
      '// kind-names: a table (the search index)',
      "if (table.name !== 'qrcodes') restore(table);",
      "// a comment may say kind === 'parcels'",
    ].join('\n');
    assert.deepEqual(
      kindNameFindings('server/x/y.ts', snippet, names).map((line) => line.split(' (')[0]),
      [
        "server/x/y.ts:1 branches on the import kind 'parcels' by name",
        "server/x/y.ts:2 branches on the import kind 'qrcodes' by name",
        "server/x/y.ts:3 branches on the import kind 'parcels' by name",
        "server/x/y.ts:4 names the task type 'QR_IMPORT'",
      ],
    );
  });

  it('reads the kind folders from the registry: a new kind is covered by the engine rule without a list to update', () => {
    const registry = "import { parcelImportEntry } from '../parcels/import-entry.ts';\nimport type { ImportKind } from './kind.ts';\n";
    assert.deepEqual(kindFolders(registry), ['server/parcels/']);
    assert.deepEqual(
      KIND_FOLDERS.toSorted(),
      Object.keys(importKinds)
        .map((id) => `server/${id}/`)
        .toSorted(),
      "every kind of the registry has its folder covered (each kind's folder is named by its id today)",
    );
    const graph = new Map([['server/imports/engine/engine.ts', ['server/services/import-kind.ts']]]);
    assert.deepEqual(violations(graph), [
      'server/imports/engine/engine.ts imports the import kind server/services/import-kind.ts (go through server/imports/kinds.ts)',
    ]);
  });

  it('finds no branch on a kind by name in the real tree', async () => {
    assert.ok(fs.existsSync(`${ROOT}/server/imports/kinds.ts`));
    assert.deepEqual(kindNameViolations(ROOT, await registryNames(), KIND_FOLDERS), []);
  });
});
