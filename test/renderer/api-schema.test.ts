import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { SCHEMA_FILE, writeApiTypes } from '../../scripts/api-types.ts';

it('renderer/src/api/schema.d.ts is what the OpenAPI document generates today', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-schema-'));
  try {
    const fresh = path.join(dir, 'schema.d.ts');
    await writeApiTypes(fresh);
    assert.ok(
      fs.readFileSync(fresh, 'utf8') === fs.readFileSync(SCHEMA_FILE, 'utf8'),
      'renderer/src/api/schema.d.ts is stale: run npm run api-types',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
