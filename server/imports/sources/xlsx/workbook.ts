import path from 'node:path';
import { DEFAULT_IMPORT_LIMITS } from '../../limits.ts';
import { SharedStringsPart } from './shared-strings.ts';
import { SheetScanner, type SheetContext, type XlsxRow } from './sheet-scanner.ts';
import { type PartTag, partTags } from './part-tags.ts';
import { NOT_UTF8, unstorableCharacter, unstorableSheetName } from './xml-text.ts';
import { centralDirectory, entryStream, notWorkbook, readEntry, type ZipEntry } from './zip.ts';

/** A worksheet of the workbook: its name, position among the sheets (1-based), visibility and zip part. */
export interface WorkbookSheet {
  name: string;
  position: number;
  hidden: boolean;
  /** Its part in the zip ("xl/worksheets/sheet2.xml"). */
  part: string;
}

const MB = 1024 * 1024;

/** The most an import reads of a workbook's own parts, unpacked (each is read whole; sheets and shared strings stream). */
export const SMALL_PART_BYTES = { relationships: 4 * MB, workbook: 16 * MB, styles: 32 * MB } as const;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Number formats Excel has built in that show a date or a time: 14-22 and 45-47, and the
 * East-Asian ones (27-36, 50-58) that Chinese, Japanese and Korean Excel write.
 */
const BUILT_IN_DATE_FORMATS = new Set([...range(14, 22), ...range(27, 36), ...range(45, 47), ...range(50, 58)]);

const DATE_LETTERS = new Set('ymdhMsb');

/** Whether a number format code shows a date or time: y, m, d, h, s or b outside quotes and brackets (one pass). */
export function isDateFormat(code: string): boolean {
  let closing = '';
  for (const char of code) {
    if (closing !== '') {
      if (char === closing) closing = '';
    } else if (char === '[') closing = ']';
    else if (char === '"') closing = '"';
    else if (DATE_LETTERS.has(char)) return true;
  }
  return false;
}

/**
 * An .xlsx file read by its parts, in any order the zip holds them: the workbook's sheets (names,
 * order, visibility, where each is), the date system, which cell styles are dates, and the shared
 * strings (read once, at the first sheet read). Sheets stream row by row (rows()).
 */
export class Workbook {
  readonly sheets: WorkbookSheet[];
  private readonly file: string;
  private readonly entries: Map<string, ZipEntry>;
  private readonly date1904: boolean;
  private readonly dateStyles: Uint8Array;
  private readonly sharedStringsPart: string | null;
  private sharedStrings: SharedStringsPart | null | undefined;

  private constructor(file: string, entries: Map<string, ZipEntry>) {
    this.file = file;
    this.entries = entries;
    const workbookPart = this.workbookPart();
    const workbook = this.tags(workbookPart, SMALL_PART_BYTES.workbook, ['workbookPr', 'sheet']);
    if (workbook === null) throw notWorkbook('it has no workbook part (is it a zip of something else?)');
    const rels = this.relationships(workbookPart);
    const properties = workbook.find((tag) => tag.name === 'workbookPr')?.attributes;
    this.date1904 = ['1', 'true'].includes(properties?.get('date1904') ?? '');
    this.sheets = [];
    for (const tag of workbook) {
      if (tag.name !== 'sheet') continue;
      const sheet = tag.attributes;
      const rel = rels.get(relationshipId(sheet));
      if (!rel || !rel.type.endsWith('/worksheet')) continue;
      const state = sheet.get('state');
      const name = sheet.get('name') ?? `Sheet${this.sheets.length + 1}`;
      const unstorable = tag.notUtf8.has('name') ? NOT_UTF8 : unstorableCharacter(name);
      if (unstorable !== null) throw unstorableSheetName(this.sheets.length + 1, unstorable);
      this.sheets.push({
        name,
        position: this.sheets.length + 1,
        hidden: state === 'hidden' || state === 'veryHidden',
        part: rel.target,
      });
    }
    const partOf = (type: string) => [...rels.values()].find((rel) => rel.type.endsWith(type))?.target ?? null;
    this.sharedStringsPart = partOf('/sharedStrings') ?? (entries.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : null);
    this.dateStyles = this.readDateStyles(partOf('/styles') ?? 'xl/styles.xml');
  }

  static open(file: string): Workbook {
    return new Workbook(file, new Map(centralDirectory(file).map((entry) => [entry.name, entry])));
  }

  /** How far into the sheet's compressed bytes `rows` has read (0 to 1), for progress. */
  fraction = 0;

  /**
   * The sheet's rows with a value, a batch per inflated chunk (or sooner, once a batch holds
   * BATCH_TEXT_CHARS of text); stops reading when the caller stops. Cells beyond `maxColumns`, and
   * rows with more than `maxRowChars` of text (serve --max-line-kb), refuse the file. `head`: only the first rows will be read, so the
   * shared strings are read only as far as they are needed (a preview of a 1,000,000-row sheet).
   */
  async *rows(sheet: WorkbookSheet, maxColumns: number, options: { head?: boolean; maxRowChars?: number } = {}): AsyncGenerator<XlsxRow[]> {
    const entry = this.entries.get(sheet.part);
    if (!entry) throw notWorkbook(`its sheet "${sheet.name}" (${sheet.part}) is missing from the file`);
    const strings = this.strings();
    if (!options.head) await strings?.readUpTo(Number.POSITIVE_INFINITY);
    const context: SheetContext = {
      strings: strings?.strings ?? null,
      allStrings: strings === null || strings.complete,
      dateStyles: this.dateStyles,
      date1904: this.date1904,
      maxColumns,
      maxRowChars: options.maxRowChars ?? DEFAULT_IMPORT_LIMITS.maxLineChars,
    };
    const scanner = new SheetScanner(context);
    const stream = entryStream(this.file, entry);
    if (stream === null) throw notWorkbook(`its sheet "${sheet.name}" is empty of XML`);
    const batch = async (rows: XlsxRow[]) => {
      const wanted = scanner.waitingFor;
      if (wanted >= 0) {
        await strings?.readUpTo(wanted);
        scanner.resolve(strings?.strings ?? null);
      }
      return rows;
    };
    this.fraction = 0;
    try {
      for await (const chunk of stream.output as AsyncIterable<Buffer>) {
        this.fraction = stream.input.bytesRead / Math.max(1, entry.compressedSize);
        scanner.push(chunk);
        for (;;) {
          const rows = await batch(scanner.take());
          if (rows.length > 0) yield rows;
          if (!scanner.full) break;
          scanner.resume();
        }
      }
      const rest = await batch(scanner.end());
      if (rest.length > 0) yield rest;
    } finally {
      stream.output.destroy();
      stream.input.destroy();
    }
  }

  /** Lets go of the shared strings part when a head read left it half read. */
  close(): void {
    this.sharedStrings?.close();
  }

  /** The shared strings part, read as far as asked (null: the workbook has none). */
  private strings(): SharedStringsPart | null {
    if (this.sharedStrings === undefined) {
      const entry = this.sharedStringsPart === null ? undefined : this.entries.get(this.sharedStringsPart);
      this.sharedStrings = entry ? new SharedStringsPart(this.file, entry) : null;
    }
    return this.sharedStrings;
  }

  private readDateStyles(part: string): Uint8Array {
    const styles = this.tags(part, SMALL_PART_BYTES.styles, ['numFmt', 'cellXfs', 'xf']);
    if (styles === null) return new Uint8Array(0);
    const custom = new Map<number, string>();
    for (const { name, attributes } of styles) {
      if (name === 'numFmt') custom.set(Number(attributes.get('numFmtId')), attributes.get('formatCode') ?? '');
    }
    const formats = styles
      .filter((tag) => tag.name === 'xf' && tag.inside === 'cellXfs')
      .map((tag) => Number(tag.attributes.get('numFmtId') ?? 0));
    const dates = new Uint8Array(formats.length);
    formats.forEach((id, index) => {
      const code = custom.get(id);
      dates[index] = (code !== undefined ? isDateFormat(code) : BUILT_IN_DATE_FORMATS.has(id)) ? 1 : 0;
    });
    return dates;
  }

  /** The workbook part the package's relationships name (xl/workbook.xml in files Excel writes). */
  private workbookPart(): string {
    const root = this.tags('_rels/.rels', SMALL_PART_BYTES.relationships, ['Relationship']);
    const target = root
      ?.map((tag) => tag.attributes)
      .find((rel) => (rel.get('Type') ?? '').endsWith('/officeDocument'))
      ?.get('Target');
    return target ? resolvePart('', target) : 'xl/workbook.xml';
  }

  private relationships(part: string): Map<string, { target: string; type: string }> {
    const dir = path.posix.dirname(part);
    const rels = this.tags(`${dir}/_rels/${path.posix.basename(part)}.rels`, SMALL_PART_BYTES.relationships, ['Relationship']);
    const found = new Map<string, { target: string; type: string }>();
    for (const rel of (rels ?? []).map((tag) => tag.attributes)) {
      const target = rel.get('Target');
      if (target && rel.get('TargetMode') !== 'External')
        found.set(rel.get('Id') ?? '', { target: resolvePart(dir, target), type: rel.get('Type') ?? '' });
    }
    return found;
  }

  /** A small part's tags named `wanted` (workbook, relationships, styles), or null when the zip lacks it. */
  private tags(part: string, maxBytes: number, wanted: readonly string[]): PartTag[] | null {
    const entry = this.entries.get(part);
    return entry ? partTags(readEntry(this.file, entry, maxBytes), wanted, `its part ${part}`) : null;
  }
}

/** The relationship id attribute of a sheet, whatever prefix the file gives its namespace (r:id). */
function relationshipId(sheet: Map<string, string>): string {
  for (const [name, value] of sheet) if (name.endsWith(':id')) return value;
  return '';
}

/** A relationship's target as a zip part name: absolute ("/xl/…") or relative to the part's folder. */
function resolvePart(dir: string, target: string): string {
  const joined = target.startsWith('/') ? target.slice(1) : path.posix.join(dir, target);
  return path.posix.normalize(joined).replace(/^\/+/, '');
}
