/**
 * The committed gazetteer file (data/gazetteer.tsv.gz) is UTF-8 text, one record a line,
 * tab-separated, written by build-gazetteer.ts and read by gazetteer.ts:
 *
 *   # comment (source and licence)
 *   Z <tab> zone 0 <tab> zone 1 ...            IANA zones, referred to by index
 *   S <tab> CC <tab> code <tab> name ...        a state/province code and the names it goes by
 *   C <tab> CC                                  the place lines that follow are in country CC
 *   postcode <tab> place <tab> state <tab> latitude <tab> longitude <tab> zone index [<tab> key [<tab> alias key|alias key]]
 *
 * key is nameKey(place) when that differs from the lower-cased place name (else empty or absent);
 * alias keys are further name keys the place is found by (Canadian FSA descriptions).
 */
import { fileURLToPath } from 'node:url';

export const GAZETTEER_FILE = fileURLToPath(new URL('./data/gazetteer.tsv.gz', import.meta.url));

export const GAZETTEER_HEADER =
  '# QR Sandbox offline gazetteer, built by server/geocoding/build-gazetteer.ts from GeoNames postal codes ' +
  '(www.geonames.org, CC BY 4.0; GB data contains Royal Mail data, Royal Mail copyright and database right)';
