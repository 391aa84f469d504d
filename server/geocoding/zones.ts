/**
 * IANA time zone of a gazetteer place, decided at build time.
 *
 * Each state or province has a default zone. Where a state is split between zones, the zone
 * found at the place's coordinates (by a coordinates-to-zone lookup) is used, but only when it
 * is one of the zones that state really has: a place near a state line, or a coordinate that
 * falls in the sea, can never get a neighbour's zone.
 */

interface StateZones {
  default: string;
  also?: string[];
}

const COUNTRY_ZONE: Record<string, string> = { GB: 'Europe/London', IT: 'Europe/Rome' };

const STATE_ZONES: Record<string, Record<string, StateZones>> = {
  AU: {
    ACT: { default: 'Australia/Sydney' },
    NSW: { default: 'Australia/Sydney', also: ['Australia/Broken_Hill', 'Australia/Lord_Howe'] },
    NT: { default: 'Australia/Darwin' },
    QLD: { default: 'Australia/Brisbane', also: ['Australia/Lindeman'] },
    SA: { default: 'Australia/Adelaide', also: ['Australia/Eucla'] },
    TAS: { default: 'Australia/Hobart', also: ['Antarctica/Macquarie'] },
    VIC: { default: 'Australia/Melbourne' },
    WA: { default: 'Australia/Perth', also: ['Australia/Eucla'] },
  },
  US: {
    AL: { default: 'America/Chicago' },
    AK: {
      default: 'America/Anchorage',
      also: ['America/Juneau', 'America/Sitka', 'America/Yakutat', 'America/Nome', 'America/Metlakatla', 'America/Adak'],
    },
    AZ: { default: 'America/Phoenix', also: ['America/Denver'] },
    AR: { default: 'America/Chicago' },
    CA: { default: 'America/Los_Angeles' },
    CO: { default: 'America/Denver' },
    CT: { default: 'America/New_York' },
    DE: { default: 'America/New_York' },
    DC: { default: 'America/New_York' },
    FL: { default: 'America/New_York', also: ['America/Chicago'] },
    GA: { default: 'America/New_York' },
    HI: { default: 'Pacific/Honolulu' },
    ID: { default: 'America/Boise', also: ['America/Los_Angeles'] },
    IL: { default: 'America/Chicago' },
    IN: {
      default: 'America/Indiana/Indianapolis',
      also: [
        'America/Chicago',
        'America/Indiana/Knox',
        'America/Indiana/Tell_City',
        'America/Indiana/Petersburg',
        'America/Indiana/Vincennes',
        'America/Indiana/Winamac',
        'America/Indiana/Marengo',
        'America/Indiana/Vevay',
      ],
    },
    IA: { default: 'America/Chicago' },
    KS: { default: 'America/Chicago', also: ['America/Denver'] },
    KY: { default: 'America/New_York', also: ['America/Chicago', 'America/Kentucky/Louisville', 'America/Kentucky/Monticello'] },
    LA: { default: 'America/Chicago' },
    ME: { default: 'America/New_York' },
    MD: { default: 'America/New_York' },
    MA: { default: 'America/New_York' },
    MI: { default: 'America/Detroit', also: ['America/Menominee'] },
    MN: { default: 'America/Chicago' },
    MS: { default: 'America/Chicago' },
    MO: { default: 'America/Chicago' },
    MT: { default: 'America/Denver' },
    NE: { default: 'America/Chicago', also: ['America/Denver'] },
    NV: { default: 'America/Los_Angeles', also: ['America/Denver'] },
    NH: { default: 'America/New_York' },
    NJ: { default: 'America/New_York' },
    NM: { default: 'America/Denver' },
    NY: { default: 'America/New_York' },
    NC: { default: 'America/New_York' },
    ND: {
      default: 'America/Chicago',
      also: ['America/Denver', 'America/North_Dakota/Center', 'America/North_Dakota/New_Salem', 'America/North_Dakota/Beulah'],
    },
    OH: { default: 'America/New_York' },
    OK: { default: 'America/Chicago' },
    OR: { default: 'America/Los_Angeles', also: ['America/Boise'] },
    PA: { default: 'America/New_York' },
    RI: { default: 'America/New_York' },
    SC: { default: 'America/New_York' },
    SD: { default: 'America/Chicago', also: ['America/Denver'] },
    TN: { default: 'America/Chicago', also: ['America/New_York'] },
    TX: { default: 'America/Chicago', also: ['America/Denver'] },
    UT: { default: 'America/Denver' },
    VT: { default: 'America/New_York' },
    VA: { default: 'America/New_York' },
    WA: { default: 'America/Los_Angeles' },
    WV: { default: 'America/New_York' },
    WI: { default: 'America/Chicago' },
    WY: { default: 'America/Denver' },
    MH: { default: 'Pacific/Majuro', also: ['Pacific/Kwajalein'] },
  },
  CA: {
    AB: { default: 'America/Edmonton' },
    BC: { default: 'America/Vancouver', also: ['America/Edmonton', 'America/Creston', 'America/Dawson_Creek', 'America/Fort_Nelson'] },
    MB: { default: 'America/Winnipeg' },
    NB: { default: 'America/Moncton' },
    NL: { default: 'America/St_Johns', also: ['America/Goose_Bay'] },
    NS: { default: 'America/Halifax', also: ['America/Glace_Bay'] },
    NT: { default: 'America/Edmonton', also: ['America/Yellowknife', 'America/Inuvik'] },
    NU: { default: 'America/Iqaluit', also: ['America/Rankin_Inlet', 'America/Cambridge_Bay', 'America/Resolute', 'America/Atikokan'] },
    ON: {
      default: 'America/Toronto',
      also: ['America/Winnipeg', 'America/Atikokan', 'America/Rainy_River', 'America/Thunder_Bay', 'America/Nipigon'],
    },
    PE: { default: 'America/Halifax' },
    QC: { default: 'America/Toronto', also: ['America/Blanc-Sablon', 'America/Halifax', 'America/Montreal'] },
    SK: { default: 'America/Regina', also: ['America/Swift_Current', 'America/Edmonton'] },
    YT: { default: 'America/Whitehorse', also: ['America/Dawson'] },
  },
};

export type CoordinateZoneLookup = (latitude: number, longitude: number) => string;

/** The zone for a place, or undefined when its state is not in the tables above. */
export function zoneOfPlace(
  country: string,
  state: string,
  latitude: number,
  longitude: number,
  lookup: CoordinateZoneLookup,
): string | undefined {
  const countryZone = COUNTRY_ZONE[country];
  if (countryZone) return countryZone;
  const zones = STATE_ZONES[country]?.[state];
  if (!zones) return undefined;
  if (!zones.also) return zones.default;
  const found = lookup(latitude, longitude);
  return zones.also.includes(found) ? found : zones.default;
}
