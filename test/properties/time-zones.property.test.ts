import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseStartDateTime, ScheduleTimesCache, scheduleTimes } from '../../server/appointments/times.ts';

const ZONES = [
  'Australia/Melbourne',
  'Australia/Perth',
  'Australia/Lord_Howe',
  'Australia/Adelaide',
  'America/New_York',
  'Europe/London',
  'America/St_Johns',
];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const localArb = fc.record({
  year: fc.integer({ min: 2020, max: 2032 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
});
const text = (l: { year: number; month: number; day: number; hour: number; minute: number }) =>
  `${l.year}-${pad(l.month)}-${pad(l.day)} ${pad(l.hour)}:${pad(l.minute)}`;

function parsed(value: string) {
  const start = parseStartDateTime(value);
  assert.ok(start.ok, value);
  return start.value;
}

describe('appointment time properties (Temporal, DST rules)', () => {
  it('end minus start is the duration in real minutes, in every zone and across DST changes', () => {
    fc.assert(
      fc.property(localArb, fc.constantFrom(...ZONES), fc.integer({ min: 1, max: 3 * 24 * 60 }), (local, zone, minutes) => {
        const times = scheduleTimes(parsed(text(local)), minutes, zone);
        assert.equal(Date.parse(times.end_utc) - Date.parse(times.start_utc), minutes * 60_000);
        assert.equal(Date.parse(times.end_date_time) - Date.parse(times.start_date_time), minutes * 60_000);
      }),
      { numRuns: 400 },
    );
  });

  it('local to UTC and back gives the typed wall-clock time, unless a DST note says what moved it', () => {
    fc.assert(
      fc.property(localArb, fc.constantFrom(...ZONES), (local, zone) => {
        const times = scheduleTimes(parsed(text(local)), 60, zone);
        assert.equal(Date.parse(times.start_date_time), Date.parse(times.start_utc), 'the offset form and UTC name one instant');
        assert.equal(times.appointment_date, times.start_date_time.slice(0, 10));
        const typed = `${text(local).replace(' ', 'T')}:00`;
        const wallClock = times.start_date_time.slice(0, 19);
        if (wallClock !== typed) {
          assert.ok(times.notes.length > 0, `${typed} in ${zone} became ${times.start_date_time} without a note`);
          assert.ok(wallClock > typed, 'a time in a DST gap only ever moves forward');
        }
        const back = new Date(Date.parse(times.start_utc)).toLocaleString('sv-SE', { timeZone: zone }).replace(' ', 'T');
        assert.equal(back.slice(0, 16), wallClock.slice(0, 16), 'UTC read back in the zone is the wall-clock time shown');
      }),
      { numRuns: 400 },
    );
  });

  it('an explicit offset or Z keeps its instant whatever the zone', () => {
    fc.assert(
      fc.property(localArb, fc.constantFrom('Z', '+10:00', '-05:00', '+05:30'), fc.constantFrom(...ZONES), (local, offset, zone) => {
        const value = `${text(local).replace(' ', 'T')}:00${offset}`;
        const times = scheduleTimes(parsed(value), 30, zone);
        assert.equal(Date.parse(times.start_utc), Date.parse(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the import memo of appointment times (ScheduleTimesCache)', () => {
  const WIDE_ZONES = [
    ...ZONES,
    'Australia/Sydney',
    'Australia/Brisbane',
    'Pacific/Chatham',
    'America/Santiago',
    'Asia/Kolkata',
    'Europe/Dublin',
    'Asia/Tehran',
    'UTC',
  ];
  const edgeArb = fc.record({
    year: fc.integer({ min: 2020, max: 2032 }),
    // Around the days of daylight-saving changes in both hemispheres, and any other day.
    month: fc.constantFrom(3, 4, 9, 10, 11, 1, 6),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 15, 30, 45, 59),
  });

  it('answers exactly what scheduleTimes answers, DST days, notes and long appointments included', () => {
    const cache = new ScheduleTimesCache();
    fc.assert(
      fc.property(
        fc.oneof(localArb, edgeArb),
        fc.constantFrom(...WIDE_ZONES),
        fc.oneof(fc.constantFrom(30, 60, 90, 120), fc.integer({ min: 1, max: 5 * 24 * 60 })),
        (local, zone, minutes) => {
          const start = parsed(text(local));
          assert.deepEqual(cache.get(start, minutes, zone), scheduleTimes(start, minutes, zone), `${text(local)} ${zone} ${minutes} min`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('on the days clocks change, every quarter hour matches scheduleTimes', () => {
    const cache = new ScheduleTimesCache();
    const days = [
      ['2026-04-05', 'Australia/Melbourne'],
      ['2026-10-04', 'Australia/Melbourne'],
      ['2026-04-05', 'Australia/Lord_Howe'],
      ['2026-03-08', 'America/New_York'],
      ['2026-11-01', 'America/New_York'],
      ['2026-03-29', 'Europe/London'],
      ['2026-04-04', 'Australia/Melbourne'],
      ['2026-10-03', 'Australia/Melbourne'],
      // Chile goes back from 24:00 to 23:00: the last hour of the day before the change happens twice.
      ['2026-04-04', 'America/Santiago'],
      ['2031-04-05', 'America/Santiago'],
      ['2026-09-06', 'America/Santiago'],
    ] as const;
    for (const [day, zone] of days) {
      for (let quarter = 0; quarter < 96; quarter++) {
        for (const minutes of [15, 60, 240]) {
          const start = parsed(`${day} ${pad(Math.floor(quarter / 4))}:${pad((quarter % 4) * 15)}`);
          assert.deepEqual(
            cache.get(start, minutes, zone),
            scheduleTimes(start, minutes, zone),
            `${day} quarter ${quarter} ${zone} ${minutes}`,
          );
        }
      }
    }
  });
});
