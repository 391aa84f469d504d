/**
 * The user guide's screenshots of an .xls import (docs/images/imports-xls-*.png), taken from the
 * real GUI in Chromium at 1280x800 against a real server with the shipped offline geocoder,
 * walking the steps the Playwright test checks (support/old-workbook-walk.ts):
 *   node test/e2e/old-workbook-doc-shots.ts
 */
import { walkOldWorkbook } from './support/old-workbook-walk.ts';
import { shootImportWalks } from './support/shot-run.ts';

await shootImportWalks('docs/images', [walkOldWorkbook]);
