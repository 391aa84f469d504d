/**
 * An Excel 97-2003 workbook (.xls) in Chromium: chosen on the Imports page, its sheet and header
 * row found, imported, and its unplaceable row numbered 8 of sheet Sites on the task page and in
 * the fix grid, as the same workbook in .xlsx is (support/old-workbook-walk.ts).
 */
import { describe, it } from 'node:test';
import { TINY_GEOCODER_MODULE } from '../support/imports.ts';
import { browserUnavailable } from './support/browser.ts';
import { walkOldWorkbook } from './support/old-workbook-walk.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable() ?? false;

describe('an .xls workbook through the GUI', { skip }, () => {
  const { session } = suiteGuiSession({ imports: { geocoderModule: TINY_GEOCODER_MODULE } });

  it('finds the sheet and header row, imports it, and numbers the excluded row 8 of sheet Sites', async () => {
    const page = await session.signedInPage('/imports');
    await walkOldWorkbook(page, async () => undefined);
  });
});
