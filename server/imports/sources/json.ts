import fs from 'node:fs';
import { ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import { JsonArraySplitter } from './json-array.ts';
import { jsonRowNumber } from './row-numbers.ts';
import type { RowHandlers, RowSource } from './source.ts';
import { UploadTextDecoder } from './text-decoder.ts';
import { readTextStart, textDecodingStream } from './text-encoding.ts';

/** Streaming JSON array of objects: elements are parsed one by one as the file is read (its text decoded as CSV text is). */
export function jsonSource(file: string, limits: ImportLimits): RowSource {
  const size = Math.max(1, fs.statSync(file).size);
  let bytes = 0;
  return {
    fraction: () => Math.min(1, bytes / size),
    async read(handlers: RowHandlers) {
      const splitter = new JsonArraySplitter(limits);
      const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
      const text = input.pipe(textDecodingStream(file, new UploadTextDecoder()));
      input.on('error', (error) => text.destroy(error));
      let index = 0;
      try {
        for await (const chunk of text as AsyncIterable<string>) {
          bytes = input.bytesRead;
          const elements = splitter.push(chunk);
          if (elements.length === 0) continue;
          const first = index;
          handlers.onRows(
            elements,
            first,
            elements.map((_e, i) => jsonRowNumber(first + i)),
          );
          index += elements.length;
        }
      } finally {
        input.destroy();
        text.destroy();
      }
      splitter.end();
    },
  };
}

/** Checks the start of a JSON upload (an array) and returns its first element, if any, for checks before a task starts. */
export function jsonFirstElement(file: string): { first: unknown; empty: boolean } {
  const { text, whole } = readTextStart(file);
  const splitter = new JsonArraySplitter();
  const elements = splitter.push(text);
  if (whole) splitter.end();
  if (!splitter.started) throw new ImportInputError('The JSON must be an array of objects.');
  return { first: elements[0], empty: whole && elements.length === 0 };
}
