/** Every address of the real-address table gets the outcome the table gives it (place, or not located and why). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';
import { tryAddress } from '../../server/geocoding/try-address.ts';
import { outcomeOf, REAL_ADDRESSES } from '../fixtures/real-addresses.ts';

const geocoder = loadGeocoder();

describe('addresses as people write them', () => {
  it('the table holds at least 60 addresses, placed and excluded ones', () => {
    assert.ok(REAL_ADDRESSES.length >= 60, `${REAL_ADDRESSES.length} rows`);
    assert.ok(REAL_ADDRESSES.filter((r) => r.placed).length >= 40);
    assert.ok(REAL_ADDRESSES.filter((r) => !r.placed).length >= 20);
  });

  for (const row of REAL_ADDRESSES) {
    const label = `${row.form}: ${row.address.location ?? JSON.stringify(row.address)}`;
    it(label, () => {
      const answer = tryAddress(geocoder, row.address);
      const seen = answer.result
        ? `${answer.result.suburb} ${answer.result.state} ${answer.result.postcode} ${answer.result.country} (${answer.result.precision})`
        : `not located: ${answer.reason}`;
      const expected = row.placed ? 'placed correctly' : 'excluded';
      assert.equal(outcomeOf(row, answer.result, answer.reason), expected, seen);
      if (row.placed) {
        if (row.placed.precision) assert.equal(answer.result?.precision, row.placed.precision, seen);
        if (row.placed.note) assert.ok(answer.result?.precision_meaning.includes(row.placed.note), answer.result?.precision_meaning);
      } else {
        assert.equal(answer.error, ADDRESS_NOT_LOCATED);
      }
    });
  }
});
