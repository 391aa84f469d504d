import { param, SyncQuery, type SyncDb } from '../appointments/sync-query.ts';
import type { DateOrder } from '../appointments/times.ts';

/** Zones of the United States, where spreadsheets show dates month first (12/2/2026). */
const MONTH_FIRST_ZONES =
  /^(America\/(New_York|Chicago|Denver|Los_Angeles|Phoenix|Anchorage|Juneau|Sitka|Yakutat|Nome|Metlakatla|Adak|Boise|Detroit|Menominee|Indiana\/.+|Kentucky\/.+|North_Dakota\/.+)|Pacific\/Honolulu|US\/.+)$/;

/**
 * Zones whose country writes the day first (Australia, New Zealand, the United Kingdom, Ireland,
 * Italy and the rest of Europe, India). Canada writes dates all three ways, so a Canadian zone,
 * like every zone not listed here, reads only year-month-day until the organization chooses.
 */
const DAY_FIRST_ZONES =
  /^(Australia\/.+|Antarctica\/Macquarie|Pacific\/(Auckland|Chatham)|Europe\/.+|Asia\/(Kolkata|Calcutta)|Atlantic\/(Canary|Madeira|Faroe|Reykjavik))$/;

/** The date order an organization gets until it chooses one: from its default time zone's country. */
export function defaultDateOrder(timeZone: string): DateOrder {
  if (MONTH_FIRST_ZONES.test(timeZone)) return 'month_first';
  if (DAY_FIRST_ZONES.test(timeZone)) return 'day_first';
  return 'iso_only';
}

/**
 * The date order an import of the organization uses: its setting, else the default from its
 * time zone. Synchronous, for an import's writer (import worker processes, the preview's trial write).
 */
export function organizationDateOrder(db: SyncDb, organizationUuid: string): DateOrder {
  const row = new SyncQuery(
    db,
    db.kysely
      .selectFrom('organizations as o')
      .leftJoin('organization_settings as s', 's.organization_uuid', 'o.uuid')
      .select(['o.default_timezone', 's.date_order'])
      .where('o.uuid', '=', param<string>('organization_uuid')),
  ).get({ organization_uuid: organizationUuid });
  return row?.date_order ?? defaultDateOrder(row?.default_timezone ?? '');
}
