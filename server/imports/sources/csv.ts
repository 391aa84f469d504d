import fs from 'node:fs';
import Papa from 'papaparse';
import { ImportInputError } from '../errors.ts';
import type { RowHandlers, RowSource } from './source.ts';
import { detectTextEncoding, readTextStart } from './text-encoding.ts';

const DELIMITERS = [',', ';', '\t', '|'];

/** Streaming CSV (papaparse `chunk`): BOM, CRLF, `,` `;` tab and `|` delimiters, quoted newlines. */
export function csvSource(file: string): RowSource {
  const size = Math.max(1, fs.statSync(file).size);
  let stream: fs.ReadStream | undefined;
  return {
    fraction: () => (stream ? Math.min(1, stream.bytesRead / size) : 0),
    read(handlers: RowHandlers) {
      const { start, encoding } = detectTextEncoding(file);
      const input = fs.createReadStream(file, { start, encoding, highWaterMark: 1 << 20 });
      stream = input;
      return new Promise<void>((resolve, reject) => {
        let headerSeen = false;
        let nextIndex = 0;
        let settled = false;
        const fail = (error: unknown) => {
          if (settled) return;
          settled = true;
          input.destroy();
          reject(error);
        };
        input.on('error', fail);
        Papa.parse<string[]>(input, {
          delimitersToGuess: DELIMITERS,
          skipEmptyLines: false,
          chunk(results, parser) {
            if (settled) return;
            try {
              let rows: (string[] | null)[] = results.data;
              if (!headerSeen) {
                const at = rows.findIndex((row) => row !== null && row.some((cell) => cell.trim() !== ''));
                if (at < 0) return;
                headerSeen = true;
                handlers.onHeader(rows[at] ?? []);
                rows = rows.slice(at + 1);
              }
              const first = nextIndex;
              nextIndex += rows.length;
              handlers.onRows(rows, first);
            } catch (error) {
              parser.abort();
              fail(error);
            }
          },
          complete() {
            if (settled) return;
            settled = true;
            if (!headerSeen) reject(new ImportInputError('The file is empty: it has no header row.'));
            else resolve();
          },
          error(error) {
            fail(new ImportInputError(`The CSV file could not be read: ${error.message}`));
          },
        });
      });
    },
  };
}

/** The header row and whether any data row follows, from the start of the file (for checks before a task starts). */
export function csvHeader(file: string): { header: string[]; hasData: boolean | null } {
  const { text, whole } = readTextStart(file);
  const parsed = Papa.parse<string[]>(text, { delimitersToGuess: DELIMITERS, preview: whole ? 0 : 50, skipEmptyLines: 'greedy' });
  const rows = parsed.data;
  const header = rows[0];
  if (!header) throw new ImportInputError('The file is empty: it has no header row.');
  const hasData = rows.length > 1 ? true : whole ? false : null;
  return { header, hasData };
}
