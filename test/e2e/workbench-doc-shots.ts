/**
 * The user guide's screenshots of the import workbench (docs/images/workbench-*.png), taken from
 * the real GUI in Chromium against a real server with the shipped offline geocoder, walking the
 * same steps the Playwright test checks (support/workbench-walk.ts):
 *   node test/e2e/workbench-doc-shots.ts
 */
import { walkAppointmentWorkbook, walkColumnQuestion, walkNearMissMatch, walkQrWorkbook } from './support/workbench-walk.ts';
import { shootImportWalks } from './support/shot-run.ts';

await shootImportWalks('docs/images', [walkQrWorkbook, walkColumnQuestion, walkNearMissMatch, walkAppointmentWorkbook]);
