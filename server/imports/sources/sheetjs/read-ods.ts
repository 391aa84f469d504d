import type { ParsingOptions, WorkBook } from '@e965/xlsx';
import { odsLiteralText } from './ods-literal-text.ts';

/** A zip entry as SheetJS unpacks it (CFB.read), and SheetJS's reader of an unpacked zip, which its types do not declare. */
interface ZipEntry {
  content?: unknown;
}
interface Unpacked {
  FullPaths: string[];
  FileIndex: ZipEntry[];
}
type ParseZip = (zip: Unpacked, options: ParsingOptions) => WorkBook;

/**
 * An .ods read as SheetJS's read() reads it (unpacked, then parse_zip), with its content.xml's
 * cell text kept literal in between (ods-literal-text.ts). Every entry SheetJS could take for
 * content.xml (it matches the name in any case) is changed.
 */
export function readOds(XLSX: typeof import('@e965/xlsx'), bytes: Uint8Array, options: ParsingOptions): WorkBook {
  const zip = XLSX.CFB.read(bytes, { type: 'buffer' }) as Unpacked;
  zip.FullPaths.forEach((path, i) => {
    const entry = zip.FileIndex[i];
    if (path.replace(/^Root Entry\//, '').toLowerCase() === 'content.xml' && entry && Buffer.isBuffer(entry.content)) {
      entry.content = odsLiteralText(entry.content);
    }
  });
  return (XLSX as unknown as { parse_zip: ParseZip }).parse_zip(zip, options);
}
