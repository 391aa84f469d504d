import { ImportInputError } from '../../errors.ts';
import { describeLimit, type ImportLimits } from '../../limits.ts';
import { centralDirectory, NotWorkbookError, readEntry, type ZipEntry } from '../xlsx/zip.ts';
import { checkEntry } from '../zip-limits.ts';
import { OdsContentScan } from './ods-content-scan.ts';
import { unreadable } from './unreadable.ts';
import { Utf8ContentScan } from './utf8-content-scan.ts';

const MANIFEST_BYTES = 4 * 1024 * 1024;

function passwordProtected(): ImportInputError {
  return new ImportInputError(
    'This OpenDocument spreadsheet (.ods) is protected with a password (it is encrypted), so it cannot be read. Open it in LibreOffice, save a copy without the password (File > Save As, with "Save with password" cleared), and upload that.',
  );
}

/** A damaged zip, said of an .ods. */
function reworded(error: unknown): unknown {
  return error instanceof NotWorkbookError ? unreadable('ods', new Error(error.why)) : error;
}

/**
 * Checks an .ods before SheetJS reads it whole, into memory: every zip entry unpacked as a stream
 * against the workbook limits (each part's size and compression ratio, the longest text between
 * tags) and all of them together against serve --max-xls-ods-mb (SheetJS unpacks every entry);
 * no password (the manifest names encryption); and content.xml's repeated cells and spaces as
 * SheetJS would expand them (OdsContentScan), and that it is UTF-8 (SheetJS would read other bytes
 * as U+FFFD; LibreOffice does not open such a file). Nothing is kept but one chunk at a time.
 * Answers the cells with a value it holds.
 */
export async function checkOdsLimits(file: string, limits: ImportLimits): Promise<number> {
  try {
    const entries = centralDirectory(file);
    const named = (name: string) => entries.find((entry) => entry.name === name);
    const manifest = named('META-INF/manifest.xml');
    if (manifest && readEntry(file, manifest, MANIFEST_BYTES).includes('encryption-data')) throw passwordProtected();
    if (!named('content.xml')) throw unreadable('ods', new Error('it has no content.xml, the part that holds the sheets'));
    let total = 0;
    let cells = 0;
    for (const entry of entries) {
      const scan = entry.name === 'content.xml' ? new Utf8ContentScan(new OdsContentScan(limits)) : undefined;
      let unpacked = total;
      // Counted as it unpacks: the read stops at the limit, not at the end of a large part.
      const observer = {
        push(chunk: Buffer) {
          unpacked += chunk.length;
          if (unpacked > limits.maxXlsOdsBytes) throw tooLarge(limits, entry);
          scan?.push(chunk);
        },
      };
      total += await checkEntry(file, entry, limits, total, observer);
      if (scan) cells = scan.end();
    }
    return cells;
  } catch (error) {
    throw reworded(error);
  }
}

function tooLarge(limits: ImportLimits, entry: ZipEntry): ImportInputError {
  return new ImportInputError(
    `The .ods workbook unpacks to more than the limit of ${describeLimit(limits, 'maxXlsOdsBytes')} for an .ods (passed at its part ${entry.name}): it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
  );
}
