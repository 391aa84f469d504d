import type { WriterEnv } from '../kind.ts';

/**
 * Rows of one file that write the same record (a QR code's external reference, or its name and
 * location without one; an appointment's job reference, or its tag, start and service): the later
 * row is imported over the earlier one, as a second import of the row would be, and warned about,
 * naming the earlier row. One entry a record written (its uuid and the row's index): about 80
 * bytes, so some 80 MB for a file of a million rows (docs/performance.md).
 */
export class RepeatedRows {
  private readonly firstRow = new Map<string, number>();
  private readonly rowNumber: (index: number) => number;

  /** `rowNumber`: a row's number as the user's file shows it, from its 0-based index (file-row.ts). */
  constructor(rowNumber: (index: number) => number) {
    this.rowNumber = rowNumber;
  }

  /**
   * Remembers the first row that wrote `record`; for a later one, its warning: `key` is what made
   * the two rows one record ("qr_code_external_reference_id EXT-1019"), `noun` the record in words.
   */
  wrote(index: number, record: string, key: string, noun: string): string | null {
    const earlier = this.firstRow.get(record);
    if (earlier === undefined) {
      this.firstRow.set(record, index);
      return null;
    }
    if (earlier === index) return null;
    return `${key} is also on row ${this.rowNumber(earlier)} of this file: both rows write the same ${noun}, and this later row's values are the ones kept.`;
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
