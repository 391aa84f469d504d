import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkJsonObject, editableJson } from '../../renderer/src/pages/inspector/json-check.ts';
import { jsonProblem } from '../../common/json-problem.ts';

describe("the re-seal editor's JSON check", () => {
  it('names the line, column and what to fix, at the same place as the server', () => {
    const texts = ['{"a":}', '{"a":1', '{\n  "id": "evt_1",\n  "type": x\n}', '[1,]', '{"a":1} 2', '{"a":"\\u12"}', '', '{"a": 01}'];
    for (const text of texts) {
      const check = checkJsonObject(text);
      assert.ok(check, text);
      assert.deepEqual(check, jsonProblem(text), `${text}: the GUI and the server agree`);
    }
    assert.match(
      checkJsonObject('{\n  "id": "evt_1",\n  "type": x\n}')?.message ?? '',
      /^Not valid JSON at line 3, column 11: this is not a JSON value/,
    );
  });

  it('takes a JSON object and refuses other JSON', () => {
    assert.equal(checkJsonObject('{"id":"evt_1","data":{}}'), null);
    for (const text of ['[]', '"text"', '12', 'null']) assert.match(checkJsonObject(text)?.message ?? '', /must be an object/, text);
  });

  it('shows a plaintext pretty-printed when it is JSON, as it is otherwise', () => {
    assert.equal(editableJson('{"a":[1,2]}'), '{\n  "a": [\n    1,\n    2\n  ]\n}');
    assert.equal(editableJson('not json'), 'not json');
    assert.equal(editableJson(null), '');
  });
});
