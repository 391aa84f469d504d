import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { diagnoseDecryption } from '../../server/tools/doctor.ts';
import { craft, envelope } from '../support/deliveries.ts';

it('never blames a key derivation for a payload and a signature of two different deliveries (a wrong key pads right once in 256)', () => {
  const blamed = new Map<string, number>();
  for (let i = 0; i < 3000; i++) {
    const a = craft(envelope(), undefined, randomBytes(16));
    const b = craft(envelope(), undefined, randomBytes(16));
    const [hint] = diagnoseDecryption(a.body, b.signatureHeader, 'DECRYPTION_FAILED');
    blamed.set(hint?.code ?? 'none', (blamed.get(hint?.code ?? 'none') ?? 0) + 1);
  }
  assert.deepEqual([...blamed], [['SIGNATURE_OF_ANOTHER_DELIVERY', 3000]]);
});
