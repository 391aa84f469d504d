import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changedValues, childPath, jsonDifferences } from '../../renderer/src/components/json-paths.ts';

test('childPath names keys with dots and array items with brackets', () => {
  assert.equal(childPath('', 'data'), 'data');
  assert.equal(childPath('data', 'services'), 'data.services');
  assert.equal(childPath('data.services', 0), 'data.services[0]');
});

test('jsonDifferences: equal documents have none', () => {
  const doc = { id: 'evt_1', data: { services: [{ name: 'Mowing' }], note: null, ok: true } };
  assert.deepEqual([...jsonDifferences(doc, structuredClone(doc))], []);
});

test('jsonDifferences marks changed, added and removed values and the containers above them', () => {
  const a = { id: 'evt_1', type: 'check_in', data: { services: [{ name: 'Mowing' }, { name: 'Edging' }], gone: 1 } };
  const b = { id: 'evt_1', type: 'check_out', data: { services: [{ name: 'Mowing' }], added: 2 } };
  assert.deepEqual([...jsonDifferences(a, b)].sort(), ['data', 'data.added', 'data.gone', 'data.services', 'data.services[1]', 'type']);
});

test('jsonDifferences: a type change (object against array, number against string) is a difference; 1 and 1.0 are not', () => {
  assert.deepEqual([...jsonDifferences({ x: {} }, { x: [] })], ['x']);
  assert.deepEqual([...jsonDifferences({ x: 1 }, { x: '1' })], ['x']);
  assert.deepEqual([...jsonDifferences({ x: 1 }, JSON.parse('{"x": 1.0}'))], []);
  assert.deepEqual([...jsonDifferences(null, { a: 1 })], ['']);
});

test('changedValues lists the deepest changes with both sides; absent is undefined', () => {
  const a = { type: 'check_in', data: { services: [{ name: 'Mowing' }, { name: 'Edging' }], gone: 1 } };
  const b = { type: 'check_out', data: { services: [{ name: 'Mowing' }], added: { x: 2 } } };
  assert.deepEqual(
    changedValues(a, b).sort((x, y) => x.path.localeCompare(y.path)),
    [
      { path: 'data.added', a: undefined, b: { x: 2 } },
      { path: 'data.gone', a: 1, b: undefined },
      { path: 'data.services[1]', a: { name: 'Edging' }, b: undefined },
      { path: 'type', a: 'check_in', b: 'check_out' },
    ],
  );
});

test('keys with dots or brackets do not invent containers', () => {
  assert.deepEqual([...jsonDifferences({ 'a.b': 1, a: 0 }, { 'a.b': 2, a: 0 })], ['a.b']);
});
