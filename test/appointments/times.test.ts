import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chooseTimeZone,
  parseDuration,
  parseStartDateTime,
  parseTimeZoneName,
  scheduleTimes,
  type ParsedStart,
  type ScheduleTimes,
} from '../../server/appointments/times.ts';

const MELBOURNE = 'Australia/Melbourne';

function start(value: unknown): ParsedStart {
  const parsed = parseStartDateTime(value);
  if (!parsed.ok) assert.fail(`expected ${String(value)} to parse: ${parsed.error}`);
  return parsed.value;
}

function times(value: unknown, duration = 60, zone = MELBOURNE): ScheduleTimes {
  return scheduleTimes(start(value), duration, zone);
}

function startError(value: unknown): string {
  const parsed = parseStartDateTime(value);
  if (parsed.ok) assert.fail(`expected ${String(value)} to be refused`);
  return parsed.error;
}

describe('appointment start formats', () => {
  it('reads YYYY-MM-DD HH:mm as wall-clock time in the zone, with its UTC offset (March in Melbourne is +11:00)', () => {
    const t = times('2026-03-02 09:00');
    assert.equal(t.start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(t.end_date_time, '2026-03-02T10:00:00+11:00');
    assert.equal(t.appointment_date, '2026-03-02');
    assert.equal(t.start_utc, '2026-03-01T22:00:00Z');
    assert.equal(t.timezone_name, MELBOURNE);
    assert.deepEqual(t.notes, []);
  });

  it('reads ISO 8601 with T and seconds, and a single-digit hour', () => {
    assert.equal(times('2026-07-15T14:05:30').start_date_time, '2026-07-15T14:05:30+10:00');
    assert.equal(times('2026-07-15 9:05').start_date_time, '2026-07-15T09:05:00+10:00');
  });

  it('honours Z: the instant is kept and shown in the zone, the local date follows the zone', () => {
    const t = times('2026-03-01T22:00:00Z');
    assert.equal(t.start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(t.appointment_date, '2026-03-02');
    assert.deepEqual(t.notes, []);
  });

  it('honours an explicit +10:00 offset; when the zone is at another offset then, it says so', () => {
    const winter = times('2026-07-15T09:00:00+10:00');
    assert.equal(winter.start_date_time, '2026-07-15T09:00:00+10:00');
    assert.deepEqual(winter.notes, []);
    const summer = times('2026-03-02T09:00:00+10:00');
    assert.equal(summer.start_date_time, '2026-03-02T10:00:00+11:00');
    assert.equal(summer.notes.length, 1);
    assert.match(summer.notes[0] ?? '', /\+10:00.*\+11:00.*10:00/);
    assert.equal(times('2026-03-02T09:00+1000').start_utc, '2026-03-01T23:00:00Z');
  });

  it('reads a spreadsheet date cell (a Date whose UTC fields are the typed wall-clock time), rounding float noise', () => {
    assert.equal(times(new Date(Date.UTC(2026, 2, 2, 9, 0))).start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(times(new Date(Date.UTC(2026, 2, 2, 8, 59, 59, 999))).start_date_time, '2026-03-02T09:00:00+11:00');
    assert.match(startError(new Date(Number.NaN)), /date cell without a valid date/);
  });

  it('refuses other formats with a message that shows the accepted ones', () => {
    assert.match(startError('02/03/2026 9:00'), /"02\/03\/2026 9:00".*YYYY-MM-DD HH:mm.*2026-03-02 09:00/);
    assert.match(startError('next tuesday'), /is not a date and time/);
    assert.match(startError('2026-03-02'), /has a date but no time.*2026-03-02 09:00/);
    assert.match(startError('2026-02-30 09:00'), /not a real date and time/);
    assert.match(startError('2026-03-02 25:00'), /not a real date and time/);
    assert.match(startError('2026-03-02T09:00:00+25:00'), /impossible UTC offset/);
    assert.match(startError(''), /start_date_time is required/);
    assert.match(startError(undefined), /start_date_time is required/);
    assert.match(startError(46083.375), /number 46083.375.*Format the cell as a date/);
  });

  it('names the column it was given in its messages', () => {
    const parsed = parseStartDateTime('tomorrow', 'Visit Start');
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : parsed.error, /^Visit Start "tomorrow"/);
  });
});

describe('daylight saving in Australia/Melbourne', () => {
  it('gap: 2026-10-04 02:30 does not exist; it moves forward by the gap to 03:30 +11:00 and says so', () => {
    const t = times('2026-10-04 02:30');
    assert.equal(t.start_date_time, '2026-10-04T03:30:00+11:00');
    assert.equal(t.end_date_time, '2026-10-04T04:30:00+11:00');
    assert.equal(t.start_utc, '2026-10-03T16:30:00Z');
    assert.equal(t.notes.length, 1);
    assert.match(t.notes[0] ?? '', /does not exist.*02:00 to 03:00.*moved forward by 1 hour to 03:30 \(\+11:00\)/);
  });

  it('overlap: 2026-04-05 02:30 happens twice; the first (+11:00) is used and the note shows how to pick the second', () => {
    const t = times('2026-04-05 02:30', 15);
    assert.equal(t.start_date_time, '2026-04-05T02:30:00+11:00');
    assert.equal(t.start_utc, '2026-04-04T15:30:00Z');
    assert.equal(t.end_date_time, '2026-04-05T02:45:00+11:00');
    assert.equal(t.notes.length, 1);
    assert.match(t.notes[0] ?? '', /happens twice.*03:00 to 02:00.*first one.*2026-04-05T02:30:00\+10:00/);
    const second = times('2026-04-05T02:30:00+10:00', 15);
    assert.equal(second.start_date_time, '2026-04-05T02:30:00+10:00');
    assert.deepEqual(second.notes, []);
  });

  it('a duration across the autumn change ends after real elapsed minutes (clock shows one hour less)', () => {
    const t = times('2026-04-05 01:30', 120);
    assert.equal(t.start_date_time, '2026-04-05T01:30:00+11:00');
    assert.equal(t.end_date_time, '2026-04-05T02:30:00+10:00');
    assert.equal(Date.parse(t.end_utc) - Date.parse(t.start_utc), 120 * 60_000);
    assert.match(t.notes.join(' '), /spans a daylight-saving change.*120 minutes later at 02:30 \(\+10:00\)/);
  });

  it('a duration across the spring change ends after real elapsed minutes (clock shows one hour more)', () => {
    const t = times('2026-10-04 01:30', 60);
    assert.equal(t.start_date_time, '2026-10-04T01:30:00+10:00');
    assert.equal(t.end_date_time, '2026-10-04T03:30:00+11:00');
    assert.equal(Date.parse(t.end_utc) - Date.parse(t.start_utc), 60 * 60_000);
  });

  it('the local date comes from the zone: late evening UTC is the next morning in Melbourne', () => {
    assert.equal(times('2026-06-30T23:30:00Z').appointment_date, '2026-07-01');
    assert.equal(times('2026-06-30T23:30:00Z', 60, 'UTC').appointment_date, '2026-06-30');
  });
});

describe('duration', () => {
  it('defaults to 60 minutes when empty', () => {
    for (const empty of [undefined, null, '', '  ']) assert.deepEqual(parseDuration(empty), { ok: true, value: 60 });
  });
  it('takes whole minutes as text or number', () => {
    assert.deepEqual(parseDuration('90'), { ok: true, value: 90 });
    assert.deepEqual(parseDuration(45), { ok: true, value: 45 });
    assert.deepEqual(parseDuration('30.0'), { ok: true, value: 30 });
  });
  it('refuses fractions, zero, negatives, words and absurd lengths with a message naming the value', () => {
    for (const bad of ['1.5', 0, '-30', 'an hour', 2.5]) {
      const parsed = parseDuration(bad);
      assert.equal(parsed.ok, false, String(bad));
      assert.match(parsed.ok ? '' : parsed.error, new RegExp(`whole number of minutes greater than 0.*"${String(bad)}"`));
    }
    const long = parseDuration(600_000);
    assert.match(long.ok ? '' : long.error, /longer than a year/);
  });
});

describe('time zone names', () => {
  it('accepts IANA names in any letter case and gives the canonical spelling', () => {
    assert.deepEqual(parseTimeZoneName('australia/melbourne'), { ok: true, value: MELBOURNE });
    assert.deepEqual(parseTimeZoneName(' Europe/London '), { ok: true, value: 'Europe/London' });
    assert.deepEqual(parseTimeZoneName('UTC'), { ok: true, value: 'UTC' });
  });
  it('refuses a city alone and suggests the Area/City name', () => {
    const parsed = parseTimeZoneName('Melbourne');
    assert.equal(parsed.ok, false);
    assert.equal(
      parsed.ok ? '' : parsed.error,
      'timezone_name "Melbourne" is not a known IANA time zone. Did you mean Australia/Melbourne?',
    );
  });
  it('refuses made-up zones and bare offsets, explaining the Area/City form', () => {
    for (const bad of ['Mars/Olympus_Mons', '+10:00', 'AEST1']) {
      const parsed = parseTimeZoneName(bad);
      assert.equal(parsed.ok, false, bad);
      assert.match(parsed.ok ? '' : parsed.error, /is not a known IANA time zone.*Area\/City, for example Australia\/Melbourne/);
    }
  });
});

describe('zone rule', () => {
  it('takes timezone_name, else the located address zone, else the organization default', () => {
    assert.deepEqual(chooseTimeZone({ timezoneName: 'Europe/Rome', located: 'Australia/Perth', organization: MELBOURNE }), {
      zone: 'Europe/Rome',
      source: 'timezone_name',
    });
    assert.deepEqual(chooseTimeZone({ located: 'Australia/Perth', organization: MELBOURNE }), {
      zone: 'Australia/Perth',
      source: 'address',
    });
    assert.deepEqual(chooseTimeZone({ timezoneName: null, located: null, organization: MELBOURNE }), {
      zone: MELBOURNE,
      source: 'organization',
    });
  });
});
