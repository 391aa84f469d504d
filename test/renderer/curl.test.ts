import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toCurl } from '../../renderer/src/api/curl.ts';

describe('toCurl', () => {
  const credential = { apiKey: 'key1', apiSecret: 's3cret' };
  it('renders a multipart upload as -F fields and -F file=@name, quoted for the shell', () => {
    const command = toCurl(
      {
        method: 'POST',
        path: '/api/qrcodes/bulk',
        form: { fields: { organization_uuid: 'org-1', processing_mode: 'sync' }, fileField: 'file', fileName: "Tom's sites.csv" },
      },
      { origin: 'http://127.0.0.1:8787', credential, revealSecret: false },
    );
    assert.equal(
      command,
      [
        "curl -sS -X POST 'http://127.0.0.1:8787/api/qrcodes/bulk'",
        "-H 'Authorization: Bearer key1:<api_secret>'",
        "-F 'organization_uuid=org-1'",
        "-F 'processing_mode=sync'",
        `-F 'file=@Tom'\\''s sites.csv'`,
      ].join(' \\\n  '),
    );
  });
  it('keeps JSON bodies as --data', () => {
    const command = toCurl({ method: 'POST', path: '/api/qrcodes', body: { a: 1 } }, { origin: '', credential: null, revealSecret: false });
    assert.match(command, /--data '\{"a":1\}'$/);
    assert.doesNotMatch(command, /-F /);
  });
});
