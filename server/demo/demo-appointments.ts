import { Temporal } from 'temporal-polyfill';
import { csvCell } from './demo-file.ts';

/** A demo site as GET /api/qrcodes lists it: its tag, address and time zone. */
export interface DemoSite {
  name: string;
  location: string;
  timezone_name: string | null;
  tags: { tag_name: string; tag_number: string }[];
}

/** How many days the demo schedule covers, today included. */
export const DEMO_SCHEDULE_DAYS = 7;
/** Every how many-th site (in reference order) has appointments. */
const SCHEDULED_SITE_STRIDE = 12;
const SLOTS = ['07:30', '09:00', '10:30', '12:30', '14:00', '15:30'];
const FIRST_WORK_ORDER = 24001;

/** Minutes a visit of each demo service takes (names of server/services/demo.ts). */
const DURATIONS: Record<string, number> = {
  Plumbing: 60,
  'Electrical Inspection': 90,
  Cleaning: 120,
  'Garden Maintenance': 90,
  'Pest Control': 45,
  'Parcel Delivery': 15,
};

/** What a kind of site (the last word of its demo name) typically books. */
const SERVICES_BY_KIND: Record<string, string[]> = {
  Depot: ['Parcel Delivery', 'Electrical Inspection', 'Pest Control'],
  Warehouse: ['Parcel Delivery', 'Pest Control', 'Electrical Inspection'],
  Clinic: ['Cleaning', 'Plumbing', 'Electrical Inspection'],
  Centre: ['Cleaning', 'Garden Maintenance', 'Plumbing'],
  Library: ['Cleaning', 'Electrical Inspection', 'Garden Maintenance'],
  Pool: ['Plumbing', 'Cleaning', 'Pest Control'],
  Office: ['Cleaning', 'Parcel Delivery', 'Electrical Inspection'],
  School: ['Garden Maintenance', 'Cleaning', 'Plumbing', 'Pest Control'],
};
const WEEKEND_SERVICES = ['Cleaning', 'Parcel Delivery', 'Garden Maintenance'];
const HEADER = ['tag_name', 'tag_number', 'start_date_time', 'location', 'duration', 'service', 'timezone_name', 'job_reference_id'];

/**
 * A week of appointments as a field admin would prepare it: from today (each site's own local
 * date) for seven days, two to four visits per working day at every twelfth site, a few on the
 * weekend, each with a work order number; plus two rows the import excludes (a service the
 * catalog does not have, a date with a two-digit year). Times are the sites' local wall-clock times.
 */
export function demoAppointmentCsv(
  sites: DemoSite[],
  now: Temporal.Instant = Temporal.Now.instant(),
  fallbackZone = 'Australia/Melbourne',
): string {
  const scheduled = sites
    .filter((site) => site.tags.length > 0)
    .sort((a, b) => tagOf(a).tag_number.localeCompare(tagOf(b).tag_number))
    .filter((_site, i) => i % SCHEDULED_SITE_STRIDE === 0);
  const rows: string[][] = [];
  let workOrder = FIRST_WORK_ORDER;
  scheduled.forEach((site, k) => {
    const zone = site.timezone_name ?? fallbackZone;
    const today = now.toZonedDateTimeISO(zone).toPlainDate();
    const kind = site.name.split(' ').at(-1) ?? '';
    const services = SERVICES_BY_KIND[kind] ?? WEEKEND_SERVICES;
    for (let day = 0; day < DEMO_SCHEDULE_DAYS; day++) {
      const date = today.add({ days: day });
      const visits = visitsOn(date.dayOfWeek, k, day);
      const weekday = date.dayOfWeek <= 5;
      const pool = weekday ? services : WEEKEND_SERVICES;
      // The few weekend sites are every third one: vary by their own count, not by k.
      const vary = weekday ? k : Math.floor(k / 3);
      for (let i = 0; i < visits; i++) {
        const service = pool[(vary + day + i) % pool.length] ?? 'Cleaning';
        const slot = SLOTS[weekday ? ((k + day) % 3) + i : (vary + day) % SLOTS.length] ?? '09:00';
        const tag = tagOf(site);
        rows.push([
          tag.tag_name,
          tag.tag_number,
          `${date.toString()} ${slot}`,
          site.location,
          String(DURATIONS[service] ?? 60),
          service,
          zone,
          `WO-${workOrder++}`,
        ]);
      }
    }
  });
  rows.splice(Math.floor(rows.length / 3), 0, ...mistakes(scheduled, now, fallbackZone, workOrder));
  return [HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** 2 to 4 visits on a working day, one at some sites on Saturday, fewer still on Sunday. */
function visitsOn(dayOfWeek: number, siteIndex: number, day: number): number {
  if (dayOfWeek <= 5) return 2 + ((siteIndex + day) % 3);
  if (dayOfWeek === 6) return siteIndex % 3 === 0 ? 1 : 0;
  return siteIndex % 6 === 0 ? 1 : 0;
}

/** Rows a field admin typically gets wrong, excluded by the import with what to fix. */
function mistakes(scheduled: DemoSite[], now: Temporal.Instant, fallbackZone: string, workOrder: number): string[][] {
  const site = scheduled[1] ?? scheduled[0];
  if (!site) return [];
  const tag = tagOf(site);
  const zone = site.timezone_name ?? fallbackZone;
  const tomorrow = now.toZonedDateTimeISO(zone).toPlainDate().add({ days: 1 });
  // Excel's short date: day first (the demo organization's date order reads that) but a two-digit year, which no order reads.
  const shortYear = `${String(tomorrow.day).padStart(2, '0')}/${String(tomorrow.month).padStart(2, '0')}/${String(tomorrow.year % 100).padStart(2, '0')} 11:00`;
  return [
    [tag.tag_name, tag.tag_number, `${tomorrow.toString()} 10:00`, site.location, '60', 'Window Cleaning', zone, `WO-${workOrder}`],
    [tag.tag_name, tag.tag_number, shortYear, site.location, '60', 'Plumbing', zone, `WO-${workOrder + 1}`],
  ];
}

function tagOf(site: DemoSite): { tag_name: string; tag_number: string } {
  return site.tags[0] ?? { tag_name: 'Site', tag_number: site.name };
}
