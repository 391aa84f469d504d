import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_GEOCODER_MODULE } from '../../server/imports/engine/geocoder-source.ts';
import { defaultImportSettings } from '../../server/imports/settings.ts';

test('an empty QR_SANDBOX_GEOCODER_MODULE means the default geocoder, not a module named ""', () => {
  const previous = process.env.QR_SANDBOX_GEOCODER_MODULE;
  try {
    process.env.QR_SANDBOX_GEOCODER_MODULE = '';
    assert.equal(defaultImportSettings('/tmp/unused').geocoderModule, DEFAULT_GEOCODER_MODULE);
    process.env.QR_SANDBOX_GEOCODER_MODULE = 'file:///elsewhere/geocoder.ts';
    assert.equal(defaultImportSettings('/tmp/unused').geocoderModule, 'file:///elsewhere/geocoder.ts');
  } finally {
    if (previous === undefined) delete process.env.QR_SANDBOX_GEOCODER_MODULE;
    else process.env.QR_SANDBOX_GEOCODER_MODULE = previous;
  }
});
