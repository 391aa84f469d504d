import ExcelJS from 'exceljs';

/** A workbook whose rows are on its second sheet under a title row and a blank row (header on row 3); sheet row 8 cannot be located. */
export async function titledWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Read me').getCell('A1').value = 'The register is on the sheet Sites.';
  const sites = book.addWorksheet('Sites');
  sites.getRow(1).values = ['Acme Pty Ltd: site register'];
  sites.getRow(3).values = ['Site Name', 'Street', 'Town', 'State', 'Post Code', 'Ext Ref'];
  sites.getRow(4).values = ['Depot', '1 High Street', 'Carlton', 'VIC', '3053', 'ROW-1'];
  sites.getRow(5).values = ['Yard', '2 High Street', 'Fitzroy', 'VIC', '3065', 'ROW-2'];
  // Row 6 is blank.
  sites.getRow(7).values = ['Shed', '3 High Street', 'Richmond', 'VIC', '3121', 'ROW-3'];
  sites.getRow(8).values = ['Lost', '4 High Street', 'Nowhere', 'QLD', '4999', 'ROW-4'];
  sites.getRow(9).values = ['Gate', '5 High Street', 'Bondi', 'NSW', '2026', 'ROW-5'];
  return Buffer.from(await book.xlsx.writeBuffer());
}
