const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const SPACE = 0x20;

/**
 * Counts the rows of a worksheet's XML that hold a value (a `<v>` or an inline string), as the
 * bytes stream past: a few states, nothing kept. Excel's used range to row 1,048,576 (rows of
 * formatted empty cells) counts for nothing. Feed it every chunk of the inflated part, in order.
 */
export class SheetRowCounter {
  rows = 0;
  private name = '';
  private inName = false;
  private inTag = false;
  private last = 0;
  private inRow = false;
  private hasValue = false;

  push(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] ?? 0;
      if (byte === LT) {
        this.inTag = true;
        this.inName = true;
        this.name = '';
      } else if (this.inTag && byte === GT) {
        if (this.inName) this.tag();
        // A row that closes itself (<row r="9" … />) has no cells.
        if (this.name === 'row' && this.last === SLASH) this.endRow();
        this.inTag = false;
        this.inName = false;
      } else if (this.inName) {
        if (byte <= SPACE || (byte === SLASH && this.name !== '')) this.tag();
        else if (this.name.length < 4) this.name += String.fromCharCode(byte);
        else this.name += '?';
      }
      if (byte > SPACE) this.last = byte;
    }
  }

  private tag(): void {
    this.inName = false;
    if (this.name === 'row') {
      this.inRow = true;
      this.hasValue = false;
    } else if (this.name === '/row') this.endRow();
    else if (this.inRow && (this.name === 'v' || this.name === 'is')) this.hasValue = true;
  }

  private endRow(): void {
    if (this.inRow && this.hasValue) this.rows++;
    this.inRow = false;
  }
}
