import fs from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import Papa from 'papaparse';
import { ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import { CsvLimitScanner } from './csv-limits.ts';
import { csvRecordLines } from './row-numbers.ts';
import type { RowHandlers, RowSource } from './source.ts';
import { UploadTextDecoder } from './text-decoder.ts';
import { readTextStart, textDecodingStream } from './text-encoding.ts';

const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter the header row uses most (outside quotes): `,` `;` tab or `|`. Default `,`. */
export function guessDelimiter(text: string): string {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  let seen = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      if (seen) break;
    } else if (!quoted) {
      seen = true;
      const count = counts.get(char);
      if (count !== undefined) counts.set(char, count + 1);
    }
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/**
 * Streaming CSV (papaparse `chunk`): CRLF, `,` `;` tab and `|` delimiters, quoted newlines; the
 * text in UTF-8 (BOM or not), Windows-1252 or UTF-16 with BOM (UploadTextDecoder).
 */
export function csvSource(file: string, limits: ImportLimits, headerRow: number | null = null): RowSource {
  const size = Math.max(1, fs.statSync(file).size);
  let stream: fs.ReadStream | undefined;
  let decoder: UploadTextDecoder | undefined;
  return {
    fraction: () => (stream ? Math.min(1, stream.bytesRead / size) : 0),
    encoding: () => (decoder ? (decoder.encoding ?? 'utf-8') : null),
    read(handlers: RowHandlers) {
      const delimiter = guessDelimiter(readTextStart(file).text);
      // 256 KB reads, decoded in 64 KB pieces (textDecodingStream): a read is in flight while four
      // pieces are parsed and written, so a busy machine's delay of the read thread is not waited out.
      const bytes = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
      stream = bytes;
      decoder = new UploadTextDecoder();
      const input = pipeline(bytes, textDecodingStream(file, decoder), () => {});
      return new Promise<void>((resolve, reject) => {
        let headerSeen = false;
        let nextIndex = 0;
        /** Records handed over by the parser so far (a record is a row; a quoted newline does not start one). */
        let records = 0;
        /** The file's line the next record starts on. */
        let line = 1;
        let settled = false;
        const fail = (error: unknown) => {
          if (settled) return;
          settled = true;
          input.destroy();
          reject(error);
        };
        input.on('error', fail);
        const scanner = new CsvLimitScanner(delimiter, limits);
        const checked = new Transform({
          decodeStrings: false,
          readableObjectMode: true,
          transform(chunk: string, _encoding, done) {
            if (scanned(() => scanner.push(chunk))) done(null, chunk);
            else done();
          },
          flush(done) {
            scanned(() => scanner.end());
            done();
          },
        });
        /** Runs a scanner step; a refusal fails the read and ends the stream. */
        const scanned = (step: () => void): boolean => {
          try {
            step();
            return true;
          } catch (error) {
            fail(error);
            checked.destroy();
            return false;
          }
        };
        input.pipe(checked);
        Papa.parse<string[]>(checked, {
          delimiter,
          skipEmptyLines: false,
          chunk(results, parser) {
            if (settled) return;
            try {
              let rows: (string[] | null)[] = results.data;
              const before = records;
              records += rows.length;
              let rowNumbers = rows.map((row) => {
                const at = line;
                line += csvRecordLines(row);
                return at;
              });
              if (!headerSeen) {
                const at =
                  headerRow === null
                    ? rows.findIndex((row) => row !== null && row.some((cell) => cell.trim() !== ''))
                    : headerRow - 1 - before < rows.length
                      ? headerRow - 1 - before
                      : -1;
                if (at < 0) return;
                headerSeen = true;
                handlers.onHeader(rows[at] ?? []);
                rows = rows.slice(at + 1);
                rowNumbers = rowNumbers.slice(at + 1);
              }
              const first = nextIndex;
              nextIndex += rows.length;
              handlers.onRows(rows, first, rowNumbers);
            } catch (error) {
              fail(error);
              parser.abort();
            }
          },
          complete() {
            if (settled) return;
            settled = true;
            if (!headerSeen && headerRow !== null) {
              reject(new ImportInputError(`The file has no row ${headerRow}: header_row is beyond its last row.`, 'header_row'));
            } else if (!headerSeen) reject(new ImportInputError('The file is empty: it has no header row.'));
            else resolve();
          },
          error(error) {
            fail(error instanceof ImportInputError ? error : new ImportInputError(`The CSV file could not be read: ${error.message}`));
          },
        });
      });
    },
  };
}

/** The first records of a CSV (at most `keep`, from its first 64 KB), blank ones kept in place, and whether that is the whole file. */
export function csvFirstRows(file: string, keep: number): { rows: string[][]; whole: boolean } {
  const { text, whole } = readTextStart(file);
  const parsed = Papa.parse<string[]>(text, { delimiter: guessDelimiter(text), preview: keep + 1, skipEmptyLines: false });
  const rows = parsed.data;
  // The start of the file may end in the middle of a record: that record is not kept, unless it is the
  // only one (a header longer than the start, which the column limit then refuses).
  const complete = whole || rows.length < 2 ? rows : rows.slice(0, -1);
  return { rows: complete.slice(0, keep), whole: whole && rows.length <= keep };
}
