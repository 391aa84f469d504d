import { LT, GT, SLASH } from './xml-bytes.ts';

/** Whether the byte ends a tag's name: space, `>` or `/`. */
const endsName = (byte: number | undefined) => byte === undefined || byte <= 0x20 || byte === GT || byte === SLASH;

/**
 * Counts the rows of a worksheet's XML that hold a value (a `<v>` or an inline string), as the
 * bytes stream past: it looks only at the first letters of each tag, nothing kept but a tag cut
 * by the chunk's end. Excel's used range to row 1,048,576 (rows of formatted empty cells) counts
 * for nothing. Feed it every chunk of the inflated part, in order.
 */
export class SheetRowCounter {
  rows = 0;
  private inRow = false;
  private hasValue = false;
  private carry: Buffer | null = null;

  push(chunk: Buffer): void {
    const data = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = null;
    let pos = 0;
    for (;;) {
      const lt = data.indexOf(LT, pos);
      if (lt < 0) return;
      if (lt + 5 > data.length) {
        this.carry = data.subarray(lt);
        return;
      }
      const first = data[lt + 1];
      if (first === 0x76 /* v */ && endsName(data[lt + 2])) this.hasValue ||= this.inRow;
      else if (first === 0x69 /* is */ && data[lt + 2] === 0x73 && endsName(data[lt + 3])) this.hasValue ||= this.inRow;
      else if (first === 0x72 /* row */ && data[lt + 2] === 0x6f && data[lt + 3] === 0x77 && endsName(data[lt + 4])) {
        const gt = data.indexOf(GT, lt);
        if (gt < 0) {
          this.carry = data.subarray(lt);
          return;
        }
        this.endRow();
        // A row that closes itself (<row r="9" … />) has no cells.
        this.inRow = data[gt - 1] !== SLASH;
        this.hasValue = false;
        pos = gt + 1;
        continue;
      } else if (first === SLASH && data[lt + 2] === 0x72 && data[lt + 3] === 0x6f && data[lt + 4] === 0x77 && endsName(data[lt + 5])) {
        if (lt + 6 > data.length) {
          this.carry = data.subarray(lt);
          return;
        }
        this.endRow();
      }
      pos = lt + 1;
    }
  }

  private endRow(): void {
    if (this.inRow && this.hasValue) this.rows++;
    this.inRow = false;
  }
}
