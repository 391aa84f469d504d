import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadGazetteer, PlaceIndex } from '../../server/geocoding/gazetteer.ts';

describe('the gazetteer keeps a key of one place as the place (PlaceIndex)', () => {
  it('answers lists in the order added, one place per add unless asked to add it once', () => {
    const index = new PlaceIndex();
    index.add('carlton', 7);
    index.add('fitzroy', 3);
    index.add('fitzroy', 9);
    index.add('fitzroy', 3, true);
    index.add('carlton', 7, true);
    index.add('carlton', 8, true);
    assert.deepEqual(index.get('carlton'), [7, 8]);
    assert.deepEqual(index.get('fitzroy'), [3, 9]);
    assert.equal(index.get('kew'), undefined);
    assert.equal(index.has('fitzroy'), true);
    assert.equal(index.size, 2);
    assert.equal(index.placeCount, 4);
  });

  it('a list of one place given out is the caller’s own: changing it changes nothing kept', () => {
    const index = new PlaceIndex();
    index.add('carlton', 7);
    index.get('carlton')?.push(99);
    assert.deepEqual(index.get('carlton'), [7]);
  });

  it('the shipped gazetteer: every place is under its postcode once, and found by its name', () => {
    const g = loadGazetteer();
    let places = 0;
    for (const index of g.countries.values()) places += index.byPostcode.placeCount;
    assert.equal(places, g.size);
    const carlton = g.countries.get('AU')?.byName.get('carlton') ?? [];
    assert.ok(carlton.some((i) => g.postcode[i] === '3053' && g.state[i] === 'VIC'));
  });
});
