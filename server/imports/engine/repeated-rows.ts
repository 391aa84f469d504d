import type { WriterEnv } from '../kind.ts';

/** Slots of the first table; it doubles whenever it is half full. */
const FIRST_SLOTS = 1 << 12;

/** Two 32-bit FNV-1a hashes of a text (different offset bases): 64 bits that tell records apart. */
function hash64(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0];
}

/**
 * Rows of one file that write the same record (a QR code's external reference, or its name and
 * location without one; an appointment's job reference, or its tag, start and service): the later
 * row is imported over the earlier one, as a second import of the row would be, and warned about,
 * naming the earlier row. Each record written is kept as a 64-bit hash of its uuid with its first
 * row, in typed arrays outside the JavaScript heap (open addressing): 12 to 24 bytes a record,
 * 25 MB for a file of a million rows (docs/performance.md). Two records are taken for one only if
 * their 64-bit hashes agree: about once in 30 million million-row files.
 */
export class RepeatedRows {
  private high = new Uint32Array(FIRST_SLOTS);
  private low = new Uint32Array(FIRST_SLOTS);
  /** The first row's number in the file (from 1); 0: an empty slot. */
  private rows = new Uint32Array(FIRST_SLOTS);
  private used = 0;
  private readonly rowNumber: (index: number) => number;

  /** `rowNumber`: the number, as the user's file shows it, of the row being written (by its 0-based index). */
  constructor(rowNumber: (index: number) => number) {
    this.rowNumber = rowNumber;
  }

  /**
   * Remembers the first row that wrote `record`; for a later one, its warning: `key` is what made
   * the two rows one record ("qr_code_external_reference_id: EXT-1019"), `noun` the record in words.
   */
  wrote(index: number, record: string, key: string, noun: string): string | null {
    const [high, low] = hash64(record);
    const slot = this.find(high, low);
    const earlier = this.rows[slot] ?? 0;
    const row = this.rowNumber(index);
    if (earlier === 0) {
      this.put(slot, high, low, row);
      return null;
    }
    if (earlier === row) return null;
    return `${key} is also on row ${earlier} of this file: both rows write the same ${noun}, and this later row's values are the ones kept.`;
  }

  /** The slot holding the hash, or the empty slot where it goes. */
  private find(high: number, low: number): number {
    const mask = this.rows.length - 1;
    let slot = (low ^ Math.imul(high, 0x9e3779b1)) & mask;
    while (this.rows[slot] !== 0 && (this.high[slot] !== high || this.low[slot] !== low)) slot = (slot + 1) & mask;
    return slot;
  }

  private put(slot: number, high: number, low: number, row: number): void {
    this.high[slot] = high;
    this.low[slot] = low;
    this.rows[slot] = row;
    if (++this.used * 2 > this.rows.length) this.grow();
  }

  private grow(): void {
    const { high, low, rows } = this;
    this.high = new Uint32Array(rows.length * 2);
    this.low = new Uint32Array(rows.length * 2);
    this.rows = new Uint32Array(rows.length * 2);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] ?? 0;
      if (row === 0) continue;
      const slot = this.find(high[i] ?? 0, low[i] ?? 0);
      this.high[slot] = high[i] ?? 0;
      this.low[slot] = low[i] ?? 0;
      this.rows[slot] = row;
    }
  }
}

/** A writer's `warn` and `wrote` (kind.ts WriterEnv) for one run over a file's rows: a repeated record becomes the later row's warning. */
export function fileRowWarnings(
  warn: (index: number, message: string) => void,
  rowNumber: (index: number) => number,
): Required<Pick<WriterEnv, 'warn' | 'wrote'>> {
  const repeated = new RepeatedRows(rowNumber);
  return {
    warn,
    wrote(index, record, key, noun) {
      const warning = repeated.wrote(index, record, key, noun);
      if (warning !== null) warn(index, warning);
    },
  };
}
