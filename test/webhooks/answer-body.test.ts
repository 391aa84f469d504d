import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerHeadersJson, readAnswerBody } from '../../server/webhooks/outgoing-answer.ts';

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part, 'utf8');
}

describe("an attempt's answer as stored", () => {
  it('keeps the body up to the bound, says when there was more, and null for an empty one', async () => {
    assert.deepEqual(await readAnswerBody(chunks('ok'), 8), { text: 'ok', truncated: false });
    assert.deepEqual(await readAnswerBody(chunks('12345', '678'), 8), { text: '12345678', truncated: false });
    assert.deepEqual(await readAnswerBody(chunks('12345', '6789'), 8), { text: '12345678', truncated: true });
    assert.deepEqual(await readAnswerBody(chunks(), 8), { text: null, truncated: false });
    assert.deepEqual(await readAnswerBody(null, 8), { text: null, truncated: false });
  });

  it('joins repeated headers and leaves out absent ones', () => {
    assert.deepEqual(JSON.parse(answerHeadersJson({ 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/plain', gone: undefined })), {
      'set-cookie': 'a=1, b=2',
      'content-type': 'text/plain',
    });
  });
});
