import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDecodeError, UploadTextDecoder } from '../../server/imports/sources/text-decoder.ts';

const TEXT = 'name,label\r\nCafé – “quoted” €5,Señor’s … — Müller 😀\r\n';
const WINDOWS_1252 = Buffer.from([
  ...Buffer.from('name,label\r\nCaf'),
  0xe9,
  0x20,
  0x96,
  0x20,
  0x93,
  ...Buffer.from('quoted'),
  0x94,
  0x20,
  0x80,
  0x35,
  0x2c,
  ...Buffer.from('Se'),
  0xf1,
  ...Buffer.from('or'),
  0x92,
  0x73,
  0x20,
  0x85,
  0x20,
  0x97,
  ...Buffer.from(' M'),
  0xfc,
  ...Buffer.from('ller\r\n'),
]);

/** Decodes `bytes` fed in pieces of `size` bytes. */
function decode(bytes: Buffer, size: number, decidingBytes?: number): { text: string; encoding: string | null; bom: boolean } {
  const decoder = new UploadTextDecoder({ decidingBytes });
  let text = '';
  for (let i = 0; i < bytes.length; i += size) text += decoder.write(bytes.subarray(i, i + size));
  text += decoder.end();
  return { text, encoding: decoder.encoding, bom: decoder.bom };
}

const SIZES = [1, 2, 3, 5, 7, 64, 1 << 16];

describe('UploadTextDecoder', () => {
  const cases: [string, Buffer, string, string, boolean][] = [
    ['UTF-8', Buffer.from(TEXT), TEXT, 'utf-8', false],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT)]), TEXT, 'utf-8', true],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')]), TEXT, 'utf-16le', true],
    ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(TEXT, 'utf16le').swap16()]), TEXT, 'utf-16be', true],
    ['Windows-1252', WINDOWS_1252, 'name,label\r\nCafé – “quoted” €5,Señor’s … — Müller\r\n', 'windows-1252', false],
    ['ASCII only', Buffer.from('a,b\r\n1,2\r\n'), 'a,b\r\n1,2\r\n', 'utf-8', false],
  ];
  for (const [name, bytes, text, encoding, bom] of cases) {
    it(`${name}: the same text whatever the chunk sizes (characters split across chunks are carried over)`, () => {
      for (const size of SIZES) assert.deepEqual(decode(bytes, size), { text, encoding, bom }, `chunks of ${size}`);
    });
  }

  it('decides at the first non-ASCII byte, however late, and with a deciding window that ends inside a character', () => {
    const late = Buffer.concat([Buffer.from('x'.repeat(100_000)), WINDOWS_1252]);
    assert.equal(decode(late, 65536).encoding, 'windows-1252');
    const utf8 = Buffer.from(`${'x'.repeat(1000)}é${'€'.repeat(40)}`);
    for (const window of [2, 3, 4, 5, 6])
      for (const size of [1, 4, 1 << 16])
        assert.equal(decode(utf8, size, window).text, utf8.toString(), `window ${window}, chunks ${size}`);
  });

  const fails = (bytes: Buffer, message: RegExp, offset: number, decidingBytes?: number) => {
    for (const size of SIZES) {
      assert.throws(
        () => decode(bytes, size, decidingBytes),
        (error: unknown) => error instanceof TextDecodeError && message.test(error.message) && error.offset === offset,
        `chunks of ${size}`,
      );
    }
  };

  it('refuses what it cannot decode without guessing, naming the byte', () => {
    fails(Buffer.from([0x41, 0x0a, 0xe9, 0x81, 0x0a]), /neither UTF-8 nor Windows-1252.*0x81/, 3);
    fails(Buffer.from([0x41, 0x0a, 0x42, 0x00]), /NUL byte/, 3);
    fails(Buffer.concat([Buffer.from('Café ñ “x”,'), Buffer.from([0xe9, 0x2c])]), /mostly UTF-8/, 17);
    fails(
      Buffer.concat([Buffer.from('é€,'), Buffer.alloc(200, 0x78), Buffer.from([0x96])]),
      /UTF-8 text until a byte that is not UTF-8/,
      206,
      16,
    );
    fails(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ok,'), Buffer.from([0xe9, 0x2c])]), /marked as UTF-8/, 6);
    fails(Buffer.concat([Buffer.from('ok€'), Buffer.from([0xe2, 0x82])]), /ends in the middle of a UTF-8 character/, 5);
    fails(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x00, 0xdc, 0x41, 0x00]), /UTF-16 little-endian.*lone surrogate/, 4);
    fails(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x42]), /UTF-16 text but ends in the middle/, 4);
  });
});
