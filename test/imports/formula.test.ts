import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { neutraliseFormula, restoreNeutralised } from '../../server/imports/reports/formula.ts';

describe('formula neutralisation in written CSV cells', () => {
  it('marks cells a spreadsheet would run, and reading them back gives each cell as it was', () => {
    const cells = ['=SUM(A1)', '+61 3 9000 0000', '-5', '@home', '\tx', "'+", "''=x", "'quoted", 'plain', ''];
    const written = cells.map(neutraliseFormula);
    assert.deepEqual(written, ["'=SUM(A1)", "'+61 3 9000 0000", "'-5", "'@home", "'\tx", "''+", "'''=x", "'quoted", 'plain', '']);
    assert.deepEqual(written.map(restoreNeutralised), cells);
  });
});
