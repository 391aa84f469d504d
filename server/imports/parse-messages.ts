import type { ImportFormat } from './sniff.ts';
import type { CheckedRow } from './row-check.ts';

export interface ParseThreadInput {
  file: string;
  format: ImportFormat;
  kind: string;
  options: Record<string, unknown>;
  organizationUuid: string;
  /** Rows already committed (a resumed import): not sent again. */
  rowsDone: number;
  /** Int32 [0]: chunks sent and not yet committed; [1]: 1 when the parse thread must stop. */
  shared: SharedArrayBuffer;
  chunkRows: number;
}

export type FromParseThread =
  | { type: 'header'; cells: string[] }
  /** `upTo`: the index of the last data row this chunk covers (blank rows included). */
  | { type: 'rows'; rows: CheckedRow[]; upTo: number; fraction: number }
  | { type: 'end' }
  | { type: 'error'; input: boolean; message: string };

/** At most this many chunks wait for the writer: the parse thread blocks beyond it, so memory stays bounded. */
export const MAX_CHUNKS_IN_FLIGHT = 2;
