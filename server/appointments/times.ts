import { Temporal } from 'temporal-polyfill';

/**
 * Appointment times: parsing the accepted start formats, the zone rule of docs/imports.md, and the
 * daylight-saving rule. Pure functions; every zone and offset computation is Temporal's.
 *
 * DST rule (documented in docs/imports.md, "Dates and time zones"):
 * - a local time in a gap (clocks go forward) moves forward by the length of the gap
 *   (Temporal's 'compatible'), e.g. 02:30 -> 03:30;
 * - a local time that happens twice (clocks go back) is the first of the two (the earlier instant);
 * both add a note to the result saying what was done.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** A start that names its own offset (or Z) is an exact instant; otherwise it is a wall-clock time. */
export type ParsedStart = { kind: 'local'; local: Temporal.PlainDateTime; key: string } | ExactStart;
type ExactStart = { kind: 'exact'; local: Temporal.PlainDateTime; offset: string; instant: Temporal.Instant; key: string };
// `key` identifies the start exactly (same key, same times), for memoising.

export const DEFAULT_DURATION_MINUTES = 60;
/** One year; longer is certainly a typing mistake. */
export const MAX_DURATION_MINUTES = 525_600;

const EXAMPLE_START = '2026-03-02 09:00';

/** How an organization reads dates written with slashes, as a spreadsheet shows them (Settings, `date_order`). */
export const DATE_ORDERS = ['day_first', 'month_first', 'iso_only'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/** 02/12/2026 11:00, 2.12.2026 11:00, 12/2/2026 11:00 AM: a date with slashes (or dots), then the time. */
const SLASH_PATTERN = /^(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})(?:[Tt ]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ORDER_WORDS: Record<Exclude<DateOrder, 'iso_only'>, string> = {
  day_first: 'day first (DD/MM/YYYY)',
  month_first: 'month first (MM/DD/YYYY)',
};
const START_PATTERN =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Reads a start date-time cell: `YYYY-MM-DD HH:mm`, ISO 8601 with `T` and seconds, either with an
 * optional `Z` or `+HH:mm` offset; or a Date from a spreadsheet date cell, whose UTC fields hold
 * the wall-clock time typed into the sheet (how exceljs reads date cells).
 */
export function parseStartDateTime(value: unknown, label = 'start_date_time', order: DateOrder = 'iso_only'): Outcome<ParsedStart> {
  if (value instanceof Date) return parseDateCell(value, label);
  if (typeof value === 'number') {
    return fail(
      `${label} is the number ${value}, not a date and time. Format the cell as a date and time in the spreadsheet, ` +
        `or type it as ${EXAMPLE_START}.`,
    );
  }
  if (typeof value !== 'string' || value.trim() === '') return fail(`${label} is required, for example ${EXAMPLE_START}.`);
  const text = value.trim();
  const slashed = SLASH_PATTERN.exec(text);
  if (slashed) return parseSlashDate(text, slashed, label, order);
  const match = START_PATTERN.exec(text);
  if (!match) {
    return fail(
      `${label} "${text}" is not a date and time this import reads. Use YYYY-MM-DD HH:mm (${EXAMPLE_START}) ` +
        'or ISO 8601 (2026-03-02T09:00:00, optionally with an offset such as +11:00 or Z).',
    );
  }
  const [, year, month, day, hour, minute, second, offsetText] = match;
  if (hour === undefined || minute === undefined) {
    return fail(`${label} "${text}" has a date but no time. Add the start time, for example ${text} 09:00.`);
  }
  let local: Temporal.PlainDateTime;
  try {
    local = Temporal.PlainDateTime.from(
      {
        year: Number(year),
        month: Number(month),
        day: Number(day),
        hour: Number(hour),
        minute: Number(minute),
        second: Number(second ?? 0),
      },
      { overflow: 'reject' },
    );
  } catch {
    return fail(`${label} "${text}" is not a real date and time (check the day of the month, hours 0-23 and minutes 0-59).`);
  }
  if (offsetText === undefined) return ok({ kind: 'local', local, key: local.toString() });
  const offset = normaliseOffset(offsetText);
  if (offset === null) return fail(`${label} "${text}" has an impossible UTC offset ${offsetText}; offsets run from -23:59 to +23:59.`);
  const instant = local.toZonedDateTime(offset).toInstant();
  return ok({ kind: 'exact', local, offset, instant, key: `${local.toString()}${offset}` });
}

/** A real wall-clock time from its parts, or null. */
function plainDateTime(parts: LocalFields): Temporal.PlainDateTime | null {
  try {
    return Temporal.PlainDateTime.from(parts, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/** "2 December 2026, 11:00": a date in words, which no one reads two ways. */
export function describeLocal(local: Temporal.PlainDateTime): string {
  return `${local.day} ${MONTHS[local.month - 1] ?? ''} ${local.year}, ${clock(local)}`;
}

/** A date with slashes, read in the organization's date order; iso_only (or a reading that is no date) fails saying what to do. */
function parseSlashDate(text: string, match: RegExpExecArray, label: string, order: DateOrder): Outcome<ParsedStart> {
  const [, first, second, yearText = '', hourText, minuteText, secondText, meridiem] = match;
  const fix = `Write it year-month-day as YYYY-MM-DD HH:mm (${EXAMPLE_START}), or choose how dates are read under Settings > Date order.`;
  if (yearText.length !== 4) return fail(`${label} "${text}" has a two-digit year; write the year in full (e.g. 2026). ${fix}`);
  if (hourText === undefined || minuteText === undefined)
    return fail(`${label} "${text}" has a date but no time. Add the start time, for example ${text} 09:00.`);
  let hour = Number(hourText);
  if (meridiem) {
    if (hour < 1 || hour > 12)
      return fail(`${label} "${text}" has the hour ${hour} with ${meridiem.toUpperCase()}; with AM or PM the hour is 1 to 12.`);
    hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  const time = { year: Number(yearText), hour, minute: Number(minuteText), second: Number(secondText ?? 0) };
  const dayFirst = plainDateTime({ ...time, day: Number(first), month: Number(second) });
  const monthFirst = plainDateTime({ ...time, day: Number(second), month: Number(first) });
  if (order === 'iso_only') {
    if (dayFirst && monthFirst && !dayFirst.equals(monthFirst)) {
      return fail(
        `${label} "${text}" could be ${describeLocal(dayFirst)} (day first) or ${describeLocal(monthFirst)} (month first), and this organization reads only year-month-day dates. ${fix}`,
      );
    }
    return fail(`${label} "${text}" is not written year-month-day, the only order this organization reads. ${fix}`);
  }
  const local = order === 'day_first' ? dayFirst : monthFirst;
  if (!local) {
    const other = order === 'day_first' ? monthFirst : dayFirst;
    const hint = other
      ? ` Read ${order === 'day_first' ? 'month' : 'day'} first it would be ${describeLocal(other)}: if your dates are written that way, change the date order under Settings.`
      : '';
    return fail(
      `${label} "${text}" is not a real date and time read ${ORDER_WORDS[order]} (check the day, the month, hours 0-23 and minutes 0-59).${hint}`,
    );
  }
  return ok({ kind: 'local', local, key: local.toString() });
}

/** Whether a start cell is a date written with slashes (or dots), read in a date order. */
export function isSlashedDate(value: unknown): boolean {
  return typeof value === 'string' && SLASH_PATTERN.test(value.trim());
}

/**
 * For a start written with slashes that reads as a date both ways (02/12/2026: 2 December or
 * 12 February), how `order` read it and the other reading, in words; null when only one reading
 * is a date (25/03/2026), both are the same (05/05/2026), or the cell is not written with slashes.
 */
export function ambiguousSlashDate(
  value: unknown,
  order: DateOrder,
): { text: string; read: string; readAs: string; other: string; otherAs: string } | null {
  if (order === 'iso_only' || typeof value !== 'string') return null;
  const text = value.trim();
  const match = SLASH_PATTERN.exec(text);
  if (!match) return null;
  const [, first, second, yearText = ''] = match;
  if (first === second || Number(first) > 12 || Number(second) > 12 || Number(first) === 0 || Number(second) === 0) return null;
  const date = (day: string | undefined, month: string | undefined) => `${Number(day)} ${MONTHS[Number(month) - 1] ?? ''} ${yearText}`;
  const dayFirst = date(first, second);
  const monthFirst = date(second, first);
  const other: Exclude<DateOrder, 'iso_only'> = order === 'day_first' ? 'month_first' : 'day_first';
  return {
    text,
    read: ORDER_WORDS[order],
    readAs: order === 'day_first' ? dayFirst : monthFirst,
    other: ORDER_WORDS[other],
    otherAs: order === 'day_first' ? monthFirst : dayFirst,
  };
}

/** How a start cell was read, in words for a preview: "read day first (DD/MM/YYYY) as 2 December 2026, 11:00". */
export function describeStartReading(value: unknown, start: ParsedStart, order: DateOrder): string {
  const when = describeLocal(start.local);
  if (value instanceof Date) return `a spreadsheet date cell, read as ${when}`;
  const text = typeof value === 'string' ? value.trim() : String(value);
  if (SLASH_PATTERN.test(text) && order !== 'iso_only') return `"${text}" read ${ORDER_WORDS[order]} as ${when}`;
  return `"${text}" read as ${when}${start.kind === 'exact' ? ` at UTC offset ${start.offset}` : ''}`;
}

function parseDateCell(value: Date, label: string): Outcome<ParsedStart> {
  const ms = value.getTime();
  if (Number.isNaN(ms)) return fail(`${label} is a date cell without a valid date. Retype it as ${EXAMPLE_START}.`);
  // Spreadsheet serial numbers are fractions of a day: round away the float noise to whole seconds.
  const rounded = new Date(Math.round(ms / 1000) * 1000);
  const local = Temporal.PlainDateTime.from({
    year: rounded.getUTCFullYear(),
    month: rounded.getUTCMonth() + 1,
    day: rounded.getUTCDate(),
    hour: rounded.getUTCHours(),
    minute: rounded.getUTCMinutes(),
    second: rounded.getUTCSeconds(),
  });
  return ok({ kind: 'local', local, key: local.toString() });
}

function normaliseOffset(text: string): string | null {
  if (text === 'Z' || text === 'z') return '+00:00';
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return `${text[0]}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Duration cell: empty means 60; otherwise a whole number of minutes above 0. */
export function parseDuration(value: unknown, label = 'duration'): Outcome<number> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return ok(DEFAULT_DURATION_MINUTES);
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : null;
  const minutes = text !== null && /^[+]?\d+(\.0*)?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(minutes) || minutes <= 0) {
    return fail(`${label} must be a whole number of minutes greater than 0, for example 60; the row has "${String(text ?? value)}".`);
  }
  if (minutes > MAX_DURATION_MINUTES) {
    return fail(
      `${label} ${minutes} is longer than a year; give the appointment's length in minutes, for example 90 for an hour and a half.`,
    );
  }
  return ok(minutes);
}

const zoneCache = new Map<string, string | null>();

/** The canonical IANA name of a zone (any letter case), or null when it is not one. Offsets such as +10:00 are not zone names. */
export function canonicalTimeZone(name: string): string | null {
  const key = name.trim();
  const cached = zoneCache.get(key);
  if (cached !== undefined) return cached;
  let canonical: string | null = null;
  if (/^[A-Za-z]/.test(key)) {
    try {
      canonical = Temporal.ZonedDateTime.from({ year: 2000, month: 1, day: 1, timeZone: key }).timeZoneId;
    } catch {
      canonical = null;
    }
  }
  if (zoneCache.size > 10_000) zoneCache.clear();
  zoneCache.set(key, canonical);
  return canonical;
}

/** Validates a timezone_name cell; the error suggests the Area/City names that end like the given text. */
export function parseTimeZoneName(value: string, label = 'timezone_name'): Outcome<string> {
  const canonical = canonicalTimeZone(value);
  if (canonical !== null) return ok(canonical);
  const suggestions = suggestTimeZones(value);
  const hint =
    suggestions.length > 0
      ? `Did you mean ${suggestions.join(' or ')}?`
      : 'Use an IANA name of the form Area/City, for example Australia/Melbourne.';
  return fail(`${label} "${value.trim()}" is not a known IANA time zone. ${hint}`);
}

function suggestTimeZones(text: string): string[] {
  const wanted = simplify(text.split('/').pop() ?? text);
  if (wanted === '') return [];
  return Intl.supportedValuesOf('timeZone')
    .filter((zone) => simplify(zone.split('/').pop() ?? zone) === wanted)
    .slice(0, 3);
}

const simplify = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

export type ZoneSource = 'timezone_name' | 'address' | 'organization';

/** The zone rule (docs/imports.md): the row's timezone_name, else the located address's zone, else the organization's default zone. */
export function chooseTimeZone(sources: { timezoneName?: string | null; located?: string | null; organization: string }): {
  zone: string;
  source: ZoneSource;
} {
  if (sources.timezoneName) return { zone: sources.timezoneName, source: 'timezone_name' };
  if (sources.located) return { zone: sources.located, source: 'address' };
  return { zone: sources.organization, source: 'organization' };
}

export interface ScheduleTimes {
  /** ISO 8601 with the zone's UTC offset, seconds precision, e.g. 2026-03-02T09:00:00+11:00 */
  start_date_time: string;
  end_date_time: string;
  /** The local date of the start, YYYY-MM-DD. */
  appointment_date: string;
  /** The same instants in UTC (…Z), for ordering and range filters. */
  start_utc: string;
  end_utc: string;
  timezone_name: string;
  /** What the DST rule or an explicit offset changed, in words for a field admin; empty when nothing. */
  notes: string[];
}

/**
 * Start and end of an appointment in `zone`: an exact start keeps its instant, a wall-clock start
 * is read in the zone under the DST rule; end = start + duration in real elapsed minutes.
 */
export function scheduleTimes(start: ParsedStart, durationMinutes: number, zone: string): ScheduleTimes {
  const notes: string[] = [];
  const begins = start.kind === 'exact' ? start.instant.toZonedDateTimeISO(zone) : resolveLocal(start.local, zone, notes);
  if (start.kind === 'exact' && start.offset !== '+00:00' && begins.offset !== start.offset) {
    notes.push(
      `The start ${start.local.toString({ smallestUnit: 'second' })}${start.offset} names offset ${start.offset}, but ${zone} is at ${begins.offset} then, ` +
        `so the appointment starts at ${clock(begins.toPlainDateTime())} local time (${begins.offset}).`,
    );
  }
  const ends = begins.add({ minutes: durationMinutes });
  if (ends.offset !== begins.offset) {
    notes.push(
      `The appointment spans a daylight-saving change in ${zone}: it starts at ${clock(begins.toPlainDateTime())} (${begins.offset}) ` +
        `and ends ${durationMinutes} minutes later at ${clock(ends.toPlainDateTime())} (${ends.offset}).`,
    );
  }
  return {
    start_date_time: withOffset(begins),
    end_date_time: withOffset(ends),
    appointment_date: begins.toPlainDate().toString(),
    start_utc: begins.toInstant().toString({ smallestUnit: 'second' }),
    end_utc: ends.toInstant().toString({ smallestUnit: 'second' }),
    timezone_name: begins.timeZoneId,
    notes,
  };
}

/** A stretch of a zone's time without an offset change, from the start of a local day on. */
interface SteadyOffset {
  /** UTC offset in ms and as scheduleTimes writes it (+11:00). */
  offsetMs: number;
  offset: string;
  /** Epoch ms of the local day's midnight and of the zone's next offset change (Infinity: none). */
  fromMs: number;
  untilMs: number;
  zoneId: string;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** YYYY-MM-DD of the UTC days met (an import meets a few hundred): one Date per day, not per row. */
const dayTexts = new Map<number, string>();
/** HH:MM of each minute of a day. */
const minuteTexts = Array.from({ length: 1440 }, (_, m) => `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`);

/** YYYY-MM-DDTHH:MM:SS of epoch ms read as UTC fields (years 1000-9999, where this equals Temporal's form). */
function isoFields(ms: number): string {
  const dayNumber = Math.floor(ms / DAY_MS);
  let day = dayTexts.get(dayNumber);
  if (day === undefined) {
    day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    if (dayTexts.size >= 20_000) dayTexts.clear();
    dayTexts.set(dayNumber, day);
  }
  const inDay = ms - dayNumber * DAY_MS;
  const seconds = Math.floor(inDay / 1000) % 60;
  return `${day}T${minuteTexts[Math.floor(inDay / MINUTE_MS)]}:${pad2(seconds)}`;
}

/** A wall-clock start's fields as plain numbers: the Temporal polyfill's getters cost about a microsecond each. */
interface LocalFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Parsed starts are memoised (row-schema.ts), so a file's repeated start reads its fields once. */
const fieldsOfStart = new WeakMap<Temporal.PlainDateTime, LocalFields>();

function plainFields(local: Temporal.PlainDateTime): LocalFields {
  let fields = fieldsOfStart.get(local);
  if (fields === undefined) {
    fields = { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second };
    fieldsOfStart.set(local, fields);
  }
  return fields;
}

/**
 * scheduleTimes, fast where that is safe, with a bounded memo: imports repeat the same start,
 * duration and zone many times, and the results are plain data.
 *
 * Most wall-clock starts fall on a day without a daylight-saving change, and their appointment
 * ends before the zone's next change: then start and end are plain arithmetic with the day's one
 * offset, which Temporal gives once per zone and day (a million rows over a year: 365 Temporal
 * computations instead of a million). Anything else (an exact start, a change that day or before
 * the end, a year outside 1000-9999) is scheduleTimes itself.
 */
export class ScheduleTimesCache {
  private readonly memo = new Map<string, ScheduleTimes>();
  /** By zone, then by day (year * 10,000 + month * 100 + day): no key text built per row. */
  private readonly steady = new Map<string, Map<number, SteadyOffset | null>>();
  private steadyDays = 0;
  private readonly limit: number;

  constructor(limit = 20_000) {
    this.limit = limit;
  }

  get(start: ParsedStart, durationMinutes: number, zone: string): ScheduleTimes {
    if (start.kind === 'local') {
      const fast = this.steadyTimes(start.local, durationMinutes, zone);
      if (fast) return fast;
    }
    const key = `${start.key}|${durationMinutes}|${zone}`;
    let times = this.memo.get(key);
    if (times === undefined) {
      times = scheduleTimes(start, durationMinutes, zone);
      if (this.memo.size >= this.limit) this.memo.clear();
      this.memo.set(key, times);
    }
    return times;
  }

  private steadyTimes(start: Temporal.PlainDateTime, durationMinutes: number, zone: string): ScheduleTimes | null {
    const local = plainFields(start);
    const { year, month, day } = local;
    if (year < 1000 || year > 9999) return null;
    const period = this.steadyOffset(year, month, day, zone);
    if (!period) return null;
    const localMs = Date.UTC(year, month - 1, day, local.hour, local.minute, local.second);
    const startMs = localMs - period.offsetMs;
    const endMs = startMs + durationMinutes * MINUTE_MS;
    if (startMs < period.fromMs || endMs >= period.untilMs) return null;
    const startLocal = isoFields(localMs);
    const endLocal = isoFields(endMs + period.offsetMs);
    if (endLocal.length !== 19) return null;
    return {
      start_date_time: `${startLocal}${period.offset}`,
      end_date_time: `${endLocal}${period.offset}`,
      appointment_date: startLocal.slice(0, 10),
      start_utc: `${isoFields(startMs)}Z`,
      end_utc: `${isoFields(endMs)}Z`,
      timezone_name: period.zoneId,
      notes: [],
    };
  }

  /** The offset from the local day's midnight until the zone's next change, or null when that day or the next has a change. */
  private steadyOffset(year: number, month: number, day: number, zone: string): SteadyOffset | null {
    let days = this.steady.get(zone);
    if (days === undefined) {
      days = new Map();
      this.steady.set(zone, days);
    }
    const key = year * 10_000 + month * 100 + day;
    let period = days.get(key);
    if (period !== undefined) return period;
    period = null;
    try {
      const midnight = Temporal.PlainDateTime.from({ year, month, day }).toZonedDateTime(zone, { disambiguation: 'earlier' });
      const next = midnight.getTimeZoneTransition('next');
      const untilMs = next ? next.epochMilliseconds : Number.POSITIVE_INFINITY;
      const offsetMs = midnight.offsetNanoseconds / 1_000_000;
      // No change within the day or the next one (so no local time of the day is skipped or repeated,
      // and no DST note applies: a change back at the next midnight, as Chile's from 24:00 to 23:00,
      // repeats the day's last hour; backward changes are under a day), and whole-minute offsets only
      // (scheduleTimes writes historic seconds-precision offsets differently).
      const steadyAllDay = midnight.toPlainDateTime().hour === 0 && untilMs >= midnight.epochMilliseconds + 2 * DAY_MS;
      if (steadyAllDay && offsetMs % MINUTE_MS === 0) {
        period = { offsetMs, offset: midnight.offset, fromMs: midnight.epochMilliseconds, untilMs, zoneId: midnight.timeZoneId };
      }
    } catch {
      period = null;
    }
    if (++this.steadyDays > this.limit) {
      this.steady.clear();
      this.steadyDays = 1;
      this.steady.set(zone, days);
      days.clear();
    }
    days.set(key, period);
    return period;
  }
}

/** The DST rule: a gap moves forward by its length, an overlap takes the earlier instant; each adds a note. */
function resolveLocal(local: Temporal.PlainDateTime, zone: string, notes: string[]): Temporal.ZonedDateTime {
  const earlier = local.toZonedDateTime(zone, { disambiguation: 'earlier' });
  const later = local.toZonedDateTime(zone, { disambiguation: 'later' });
  if (earlier.epochNanoseconds === later.epochNanoseconds) return earlier;
  const change = earlier.getTimeZoneTransition('next');
  const from = change ? clock(change.withTimeZone(earlier.offset).toPlainDateTime()) : '?';
  const to = change ? clock(change.toPlainDateTime()) : '?';
  if (earlier.toPlainDateTime().equals(local)) {
    notes.push(
      `${isoLocal(local)} happens twice in ${zone} (clocks go back from ${from} to ${to} that day); ` +
        `the first one was used (${earlier.offset}). For the second one write the offset: ${local.toString({ smallestUnit: 'second' })}${later.offset}.`,
    );
    return earlier;
  }
  const chosen = local.toZonedDateTime(zone, { disambiguation: 'compatible' });
  const gap = Temporal.Duration.from({ nanoseconds: later.offsetNanoseconds - earlier.offsetNanoseconds }).round({ largestUnit: 'hour' });
  notes.push(
    `${isoLocal(local)} does not exist in ${zone} (clocks go forward from ${from} to ${to} that day); ` +
      `the start was moved forward by ${describeLength(gap)} to ${clock(chosen.toPlainDateTime())} (${chosen.offset}).`,
  );
  return chosen;
}

function withOffset(zoned: Temporal.ZonedDateTime): string {
  return zoned.toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

function isoLocal(local: Temporal.PlainDateTime): string {
  return `${local.toPlainDate().toString()} ${clock(local)}`;
}

function clock(local: Temporal.PlainDateTime): string {
  const text = `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`;
  return local.second === 0 ? text : `${text}:${String(local.second).padStart(2, '0')}`;
}

function describeLength(length: Temporal.Duration): string {
  const parts: string[] = [];
  if (length.hours) parts.push(`${length.hours} hour${length.hours === 1 ? '' : 's'}`);
  if (length.minutes) parts.push(`${length.minutes} minute${length.minutes === 1 ? '' : 's'}`);
  return parts.join(' ') || 'less than a minute';
}

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = <T>(error: string): Outcome<T> => ({ ok: false, error });
