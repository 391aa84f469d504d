import type { TextEncodingName } from '../text-encodings.ts';

/** What a streaming parser hands the engine: the header once, then data rows chunk by chunk, synchronously. */
export interface RowHandlers {
  /** File header cells as given (not called for JSON). */
  onHeader(cells: string[]): void;
  /**
   * A chunk of data rows: cell arrays for files, parsed elements for JSON. `firstIndex` is the
   * 0-based data-row index of rows[0]; a null entry is a blank line that still takes an index.
   * `rowNumbers[i]` is where rows[i] is in the file as its user sees it (rowNumbers.ts).
   */
  onRows(rows: unknown[], firstIndex: number, rowNumbers: readonly number[]): void;
}

export interface RowSource {
  /** Streams the whole input through the handlers; a handler's throw stops reading and rejects. */
  read(handlers: RowHandlers): Promise<void>;
  /** How much of the input has been read, 0 to 1. */
  fraction(): number;
  /** Text files: the encoding the text is read in (after read(); null before). */
  encoding?(): TextEncodingName | null;
}
