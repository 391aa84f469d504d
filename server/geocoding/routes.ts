import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { geocoderAboutSchema, locateBodySchema, locateResultSchema } from './schemas.ts';
import { aboutGeocoder, tryAddress } from './try-address.ts';

const tag = 'Geocoder';

export function registerGeocoderRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/geocoder',
      tag,
      summary:
        'The geocoder imports and QR codes use: offline or not, the countries it covers, how many places, and its data sources and licences.',
      response: geocoderAboutSchema,
    },
    async () => aboutGeocoder(await ctx.imports.geocoder()),
  );

  api.route(
    {
      method: 'post',
      path: '/api/geocoder/locate',
      tag,
      role: 'viewer',
      summary: 'Try an address: where an import would locate it (coordinates, precision, time zone), or why it cannot. Writes nothing.',
      description:
        'Takes the address as an import row gives it: `location` (free text, as in an appointment row) or the parts `suburb`, `state`, `postcode`, `country` ' +
        '(as in a QR code row; when suburb or postcode is given, the parts are used). An address that cannot be located is a 200 with `located: false`, ' +
        '`error` (exactly the error an import row gets) and `reason`.',
      body: locateBodySchema,
      response: locateResultSchema,
    },
    async ({ body }) => tryAddress(await ctx.imports.geocoder(), body),
  );
}
