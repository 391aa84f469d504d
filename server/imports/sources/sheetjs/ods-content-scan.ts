import { ImportInputError } from '../../errors.ts';
import { describeLimit, type ImportLimits } from '../../limits.ts';
import { cellName, MAX_SHEET_ROWS } from '../xlsx/sheet-scanner.ts';
import { NOT_UTF8, unstorableCell, unstorableSheetName, xmlEntities } from '../xlsx/xml-text.ts';

/** The longest tag carried from one chunk to the next; a longer one refuses the file. */
const MAX_TAG_CHARS = 8 * 1024 * 1024;
const ATTRIBUTE = /([^\s=/]+)\s*=\s*"([^"]*)"/g;
/** The attribute whose value a tag cut short is in. */
const OPEN_ATTRIBUTE = /([^\s=/]+)\s*=\s*"[^"]*$/;
const DAMAGED = 'The file is damaged or was not written by a spreadsheet program (LibreOffice does not open it either)';

function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, value] of tag.matchAll(ATTRIBUTE)) if (name !== undefined) found.set(localName(name), value ?? '');
  return found;
}

/** A repeat count as SheetJS reads it (parseInt), at least 1. */
function repeat(value: string | undefined): number {
  const count = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(count) && count > 1 ? count : 1;
}

/**
 * Reads an .ods's content.xml as it streams (`push` each inflated chunk), before SheetJS reads it
 * whole, and refuses what SheetJS would expand beyond the limits: SheetJS writes out every
 * repeated cell with a value (`table:number-rows-repeated` times `table:number-columns-repeated`,
 * so a few bytes can stand for billions of cells) and every run of spaces (`<text:s text:c="…"/>`).
 * It counts the cells with a value as SheetJS will hold them (serve --max-xls-ods-cells), and
 * refuses such a cell beyond the column limit or Excel's last row, and a cell whose spaces pass
 * the cell limit. Tags are found as SheetJS finds them (comments removed first, CDATA not
 * special), so what it would read is what is counted; nothing but a tag cut by a chunk is kept.
 */
export class OdsContentScan {
  /** Cells with a value, repeats expanded, all sheets together. */
  cells = 0;
  private readonly limits: ImportLimits;
  /** Text after the last whole tag (a tag cut by the chunk), comments already removed. */
  private tagCarry = '';
  /** The end of the last chunk that may begin or end a comment. */
  private commentCarry = '';
  private inComment = false;
  /** The sheets begun (<table:table> tags), and the name of the last. */
  private sheets = 0;
  private sheet = '';
  /** The current row's first row index (0-based) and how many rows it stands for. */
  private row = 0;
  private rowRepeat = 1;
  private column = 0;
  /** The open cell: its first column, repeat, whether it has a value, its spaces from <text:s>. */
  private cell: { column: number; repeat: number; valued: boolean; spaces: number } | null = null;

  constructor(limits: ImportLimits) {
    this.limits = limits;
  }

  push(chunk: Buffer): void {
    const raw = this.commentCarry + chunk.toString('latin1');
    this.commentCarry = '';
    const text = this.tagCarry + this.withoutComments(raw);
    this.tagCarry = '';
    let pos = 0;
    for (;;) {
      const lt = text.indexOf('<', pos);
      if (lt < 0) {
        this.seeText(text, pos, text.length);
        return;
      }
      this.seeText(text, pos, lt);
      const gt = text.indexOf('>', lt + 1);
      const next = text.indexOf('<', lt + 1);
      if (gt < 0) {
        if (text.length - lt > MAX_TAG_CHARS) throw this.refuse('its content.xml has a tag longer than 8 MB');
        this.tagCarry = text.slice(lt);
        return;
      }
      if (next >= 0 && next < gt) {
        pos = next;
        continue;
      }
      this.tag(text.slice(lt + 1, gt));
      pos = gt + 1;
    }
  }

  /** The text with `<!-- … -->` removed, across chunks (SheetJS removes comments before it looks for tags). */
  private withoutComments(text: string): string {
    let out = '';
    let pos = 0;
    for (;;) {
      if (this.inComment) {
        const end = text.indexOf('-->', pos);
        if (end < 0) {
          // Keep the last two characters: the end marker may be cut by the chunk.
          this.commentCarry = text.slice(Math.max(pos, text.length - 2));
          return out;
        }
        this.inComment = false;
        pos = end + 3;
      }
      const start = text.indexOf('<!--', pos);
      if (start < 0) {
        const tail = text.slice(pos);
        // A `<!-` at the very end may begin a comment: carry it.
        const cut = /<!?-?$/.exec(tail);
        if (cut) {
          this.commentCarry = tail.slice(cut.index);
          return out + tail.slice(0, cut.index);
        }
        return out + tail;
      }
      out += text.slice(pos, start);
      this.inComment = true;
      pos = start + 4;
    }
  }

  private seeText(text: string, from: number, to: number): void {
    if (this.cell && !this.cell.valued && to > from && text.slice(from, to).trim() !== '') this.cell.valued = true;
  }

  private tag(body: string): void {
    const closing = body.startsWith('/');
    const selfClosing = body.endsWith('/');
    const name = localName(/^\/?([^\s/]*)/.exec(body)?.[1] ?? '');
    if (closing) {
      if (name === 'table-row') {
        this.endCell();
        this.row += this.rowRepeat;
        this.rowRepeat = 1;
      } else if (name === 'table-cell') this.endCell();
      return;
    }
    switch (name) {
      case 'table': {
        this.sheets++;
        this.sheet = xmlEntities(attributes(body).get('name') ?? '');
        this.row = 0;
        this.rowRepeat = 1;
        this.column = 0;
        break;
      }
      case 'table-row': {
        this.endCell();
        this.rowRepeat = repeat(attributes(body).get('number-rows-repeated'));
        this.column = 0;
        if (selfClosing) {
          this.row += this.rowRepeat;
          this.rowRepeat = 1;
        }
        break;
      }
      case 'table-cell':
      case 'covered-table-cell': {
        this.endCell();
        const attrs = attributes(body);
        const cell = {
          column: this.column,
          repeat: repeat(attrs.get('number-columns-repeated')),
          valued: name === 'table-cell' && (attrs.has('value-type') || attrs.has('string-value') || attrs.has('formula')),
          spaces: 0,
        };
        this.column += cell.repeat;
        if (name === 'table-cell') {
          this.cell = cell;
          if (selfClosing) this.endCell();
        }
        break;
      }
      case 's': {
        if (!this.cell) break;
        this.cell.valued = true;
        this.cell.spaces += repeat(attributes(body).get('c'));
        if (this.cell.spaces > this.limits.maxCellChars) {
          throw new ImportInputError(
            `Cell ${cellName(this.cell.column + 1, this.row + 1)} of the sheet "${this.sheet}" holds more spaces than the limit of ${describeLimit(this.limits, 'maxCellChars')} for one cell. Shorten it and import again.`,
          );
        }
        break;
      }
      default:
    }
  }

  /** The open cell ends: with a value, it counts once for every row and column it is repeated over. */
  private endCell(): void {
    const cell = this.cell;
    this.cell = null;
    if (!cell?.valued) return;
    const last = cell.column + cell.repeat;
    if (last > this.limits.maxColumns) {
      throw new ImportInputError(
        `Row ${(this.row + 1).toLocaleString('en-US')} of the sheet "${this.sheet}" has a cell beyond column ${this.limits.maxColumns.toLocaleString('en-US')}, the limit (serve --max-columns). Delete the far cells and import again.`,
      );
    }
    if (this.row + this.rowRepeat > MAX_SHEET_ROWS) {
      throw new ImportInputError(
        `The sheet "${this.sheet}" has a cell with a value beyond row ${MAX_SHEET_ROWS.toLocaleString('en-US')}, the last row a spreadsheet has${this.rowRepeat > 1 ? ` (a row repeated ${this.rowRepeat.toLocaleString('en-US')} times from row ${(this.row + 1).toLocaleString('en-US')})` : ` (row ${(this.row + 1).toLocaleString('en-US')})`}: the file is damaged or was not written by a spreadsheet. Open it in LibreOffice and save it again, or export it as CSV.`,
      );
    }
    this.cells += cell.repeat * this.rowRepeat;
    if (this.cells > this.limits.maxXlsOdsCells) {
      throw new ImportInputError(
        `The .ods workbook holds more cells with a value (its repeated cells counted each time) than the limit of ${describeLimit(this.limits, 'maxXlsOdsCells')} for an .ods: it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
      );
    }
  }

  /**
   * The refusal of bytes that are not UTF-8 found just after those pushed (byte `at` of
   * content.xml), named by where they are: a cell's text or attributes, a sheet's name, or else
   * the byte.
   */
  notUtf8(at: number): ImportInputError {
    if (this.tagCarry !== '') {
      const tag = localName(/^<\/?([^\s/>]*)/.exec(this.tagCarry)?.[1] ?? '');
      const attribute = localName(OPEN_ATTRIBUTE.exec(this.tagCarry)?.[1] ?? '');
      if (tag === 'table' && attribute === 'name') return unstorableSheetName(this.sheets + 1, NOT_UTF8);
      if (tag === 'table-cell' || tag === 'covered-table-cell') return this.cellNotUtf8(this.column);
    }
    if (this.cell) return this.cellNotUtf8(this.cell.column);
    return new ImportInputError(
      `The file could not be read as an OpenDocument spreadsheet (.ods): its content.xml has bytes that are not UTF-8 at byte ${at.toLocaleString('en-US')}, outside any cell. ${DAMAGED}: export the data from the program that wrote it as CSV UTF-8, and import that.`,
    );
  }

  private cellNotUtf8(column: number): ImportInputError {
    return unstorableCell(
      `Cell ${cellName(column + 1, this.row + 1)} of the sheet "${this.sheet}"`,
      NOT_UTF8,
      `${DAMAGED}: correct that cell in the program that wrote the file, or export the data from it as CSV UTF-8, and import that.`,
    );
  }

  private refuse(why: string): ImportInputError {
    return new ImportInputError(
      `The file could not be read as an OpenDocument spreadsheet (.ods): ${why}. Open it in LibreOffice and save it again (as .xlsx, or export it as CSV), and upload that.`,
    );
  }
}
