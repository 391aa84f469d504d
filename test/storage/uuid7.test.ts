import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uuid7 } from '../../server/db/uuid7.ts';

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('uuid7 gives version 7, variant 10 UUIDs whose first 48 bits are the time in milliseconds', () => {
  const before = Date.now();
  const uuid = uuid7();
  const after = Date.now();
  assert.match(uuid, UUID7);
  const ms = Number.parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
  assert.ok(ms >= before && ms <= after + 1, `${ms} not in [${before}, ${after}]`);
});

test('uuid7 values rise in the order they are made and never repeat, many in the same millisecond', () => {
  const made = Array.from({ length: 100_000 }, () => uuid7());
  for (const uuid of made) assert.match(uuid, UUID7);
  for (let i = 1; i < made.length; i++) assert.ok((made[i] as string) > (made[i - 1] as string), `${made[i]} after ${made[i - 1]}`);
  assert.equal(new Set(made).size, made.length);
  const randomParts = new Set(made.map((uuid) => uuid.slice(19)));
  assert.ok(randomParts.size > made.length * 0.999, 'the last 62 bits are random');
});
