import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
const MODULE = 'server/wire-format/';
const WIRE_CRYPTO = /\bcreate(Cipheriv|Decipheriv|Hmac)\b/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

describe('the webhook wire format lives in one module', () => {
  it(`no file of server/ outside ${MODULE} encrypts, decrypts or signs with node:crypto`, () => {
    const outside = sourceFiles('server').filter(
      (file) => !file.startsWith(MODULE) && WIRE_CRYPTO.test(fs.readFileSync(path.join(root, file), 'utf8')),
    );
    assert.deepEqual(outside, [], `Use ${MODULE} (seal, open, sign, verify) instead of node:crypto in: ${outside.join(', ')}`);
  });

  it('the module itself is where those calls are (the check above looks for the right names)', () => {
    const inside = sourceFiles('server/wire-format').filter((file) => WIRE_CRYPTO.test(fs.readFileSync(path.join(root, file), 'utf8')));
    assert.deepEqual(inside.sort(), ['server/wire-format/cipher.ts', 'server/wire-format/signature.ts']);
  });
});
