import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStartDateTime, scheduleTimes } from '../../server/appointments/times.ts';
import { dateCellText } from '../../server/imports/engine/row-check.ts';

describe('date cells in error reports', () => {
  it('are written as the wall-clock time typed in the sheet, and read back as the same local time', () => {
    // exceljs gives a cell typed "2026-03-02 09:00" as a Date whose UTC fields hold 09:00.
    const cell = new Date(Date.UTC(2026, 2, 2, 9, 0, 0));
    const text = dateCellText(cell);
    assert.equal(text, '2026-03-02 09:00:00');
    const fromReport = parseStartDateTime(text);
    const fromSheet = parseStartDateTime(cell);
    assert.ok(fromReport.ok && fromSheet.ok);
    const zone = 'Australia/Melbourne';
    assert.equal(scheduleTimes(fromReport.value, 60, zone).start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(scheduleTimes(fromReport.value, 60, zone).start_utc, scheduleTimes(fromSheet.value, 60, zone).start_utc);
  });
});
