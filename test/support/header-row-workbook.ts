import ExcelJS from 'exceljs';

/** The sheet of HEADER_ROW_3_WORKBOOK that holds the sites, and the row its header is on. */
export const SITES_SHEET = 'Sites';
export const SITES_HEADER_ROW = 3;

/**
 * A field team's workbook: a note sheet first, then the sites on sheet "Sites" under two title
 * rows (header on row 3) in the team's own column names. Of its three sites the import excludes
 * one, Yard: its suburb (default "Nowhere Land") cannot be located (Fitzroy, 3065 fixes it).
 */
export async function headerRow3Workbook(reference: string, yardSuburb = 'Nowhere Land'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Read me').addRow(['The site register is on the sheet Sites.']);
  const sheet = workbook.addWorksheet(SITES_SHEET);
  sheet.addRow(['Acme Pty Ltd: site register']);
  sheet.addRow(['Exported 28/11/2026 by the facilities team']);
  sheet.addRow(['Site Name', 'Street Address', 'Suburb', 'State', 'Postcode', 'Ext Ref']);
  sheet.addRow(['Depot', '1 Lygon Street', 'Carlton', 'VIC', '3053', `${reference}-1`]);
  sheet.addRow(['Yard', '2 Brunswick Street', yardSuburb, 'VIC', '', `${reference}-2`]);
  sheet.addRow(['Gate', '4 Swan Street', 'Richmond', 'VIC', '3121', `${reference}-3`]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
