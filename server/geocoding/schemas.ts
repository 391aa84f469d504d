import { z } from 'zod';

export const geoPrecisionSchema = z.enum(['postcode', 'place', 'city', 'postcode_only']);

export const geocoderAboutSchema = z
  .object({
    name: z.string().describe('e.g. "Offline GeoNames gazetteer"'),
    summary: z.string().describe('What it is and how it works, in a sentence or two'),
    offline: z.boolean().describe('true: nothing is fetched from the network, ever'),
    places: z.number().int().describe('Places (postcode + place name) it knows'),
    time_zones: z.number().int().describe('Distinct IANA time zones its places are in'),
    countries: z
      .array(
        z.object({
          code: z.string().describe('ISO 3166 alpha-2'),
          name: z.string(),
          places: z.number().int(),
          postcodes: z.number().int().describe('Distinct postcodes (outward codes in GB, forward sortation areas in CA)'),
        }),
      )
      .describe('The countries it covers; an address elsewhere is not located'),
    sources: z.array(
      z.object({
        name: z.string(),
        url: z.string(),
        licence: z.string(),
        licence_url: z.string(),
        attribution: z.string().describe('The credit the licence asks for'),
      }),
    ),
    precisions: z
      .array(z.object({ precision: geoPrecisionSchema, meaning: z.string() }))
      .describe('What each precision of a located address means'),
    not_located_message: z.string().describe('The error an import row or a QR code gets when its address cannot be located'),
  })
  .meta({ id: 'GeocoderAbout' });
export type GeocoderAbout = z.infer<typeof geocoderAboutSchema>;

const part = z.string().max(500).nullable().optional();

export const locateBodySchema = z
  .strictObject({
    location: part.describe('Free-text address, as in an appointment row: "12 Smith St, Fitzroy VIC 3065, Australia"'),
    address_line_1: part,
    suburb: part.describe('When suburb or postcode is given, the parts are used (as for a QR code row) and location is not read'),
    state: part,
    postcode: part,
    country: part.describe('Name or code; without it every covered country is tried'),
  })
  .refine((body) => [body.location, body.suburb, body.postcode].some((v) => typeof v === 'string' && v.trim() !== ''), {
    message: 'Give an address to locate: a location, or a suburb or postcode.',
    path: ['location'],
  });
export type LocateBody = z.infer<typeof locateBodySchema>;

export const locateResultSchema = z
  .object({
    located: z.boolean(),
    read_from: z
      .enum(['parts', 'location'])
      .describe('parts: suburb/state/postcode/country were matched; location: the free text was read'),
    result: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        precision: geoPrecisionSchema,
        precision_meaning: z
          .string()
          .describe(
            'What the precision means; then, for this address, which part won when the parts disagreed or which postcode was chosen',
          ),
        suburb: z.string(),
        state: z.string(),
        postcode: z.string(),
        country: z.string().describe('ISO 3166 alpha-2'),
        timezone_name: z.string().describe('IANA zone: the time zone an appointment there is read in'),
      })
      .nullable()
      .describe('Where the address was located; null when it was not'),
    error: z.string().nullable().describe('null when located; otherwise exactly the error an import row with this address gets'),
    reason: z
      .string()
      .nullable()
      .describe('Why it was not located, in plain words (which part the gazetteer does not know or which parts disagree)'),
  })
  .meta({ id: 'LocateResult' });
export type LocateResult = z.infer<typeof locateResultSchema>;
