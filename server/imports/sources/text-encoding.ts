import fs from 'node:fs';
import { Transform } from 'node:stream';
import type { TextEncodingName } from '../text-encodings.ts';
import { DECIDING_BYTES, TextDecodeError, UploadTextDecoder } from './text-decoder.ts';

/** The line (1-based) of a byte of a text file, for error messages: its line breaks are counted up to there. */
function lineOfByte(file: string, offset: number, encoding: TextEncodingName | null): number {
  const decoder = new TextDecoder(encoding ?? 'windows-1252');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 20);
  let line = 1;
  try {
    for (let position = 0; position < offset; ) {
      const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, offset - position), position);
      if (read === 0) break;
      position += read;
      const text = decoder.decode(buffer.subarray(0, read), { stream: true });
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) line++;
    }
  } finally {
    fs.closeSync(fd);
  }
  return line;
}

/** A decoding error of `file` that names the line of the bad byte; other errors as they are. */
export function withLine(file: string, error: unknown, decoder: UploadTextDecoder): unknown {
  return error instanceof TextDecodeError ? error.onLine(lineOfByte(file, error.offset, decoder.encoding)) : error;
}

/**
 * At least the first `bytes` of a text file (when it has them), decoded as the import decodes the
 * whole file (UploadTextDecoder), and the encoding seen so far (null: ASCII so far). It reads
 * DECIDING_BYTES more, so a first non-ASCII byte within `bytes` is decided as the import decides it.
 * Throws ImportInputError when they are not text.
 */
export function readTextStart(file: string, bytes = 65536): { text: string; whole: boolean; encoding: TextEncodingName | null } {
  const size = fs.statSync(file).size;
  const decoder = new UploadTextDecoder();
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(bytes + DECIDING_BYTES, size));
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const whole = read >= size;
    let text = decoder.write(buffer.subarray(0, read));
    if (whole) text += decoder.end();
    return { text, whole, encoding: decoder.encoding };
  } catch (error) {
    throw withLine(file, error, decoder);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Text is handed on in pieces of at most 64 KB of bytes, however big the chunks read: a piece's
 * string then stays under V8's large-object size, and the rows parsed from it die young.
 */
const TEXT_PIECE_BYTES = 64 * 1024;

/** A stream of the decoded text (strings) of the bytes piped in; decoding errors name their line in `file`. */
export function textDecodingStream(file: string, decoder: UploadTextDecoder): Transform {
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      try {
        for (let at = 0; at < chunk.length; at += TEXT_PIECE_BYTES) {
          const text = decoder.write(chunk.subarray(at, at + TEXT_PIECE_BYTES));
          if (text !== '') this.push(text);
        }
        done();
      } catch (error) {
        done(withLine(file, error, decoder) as Error);
      }
    },
    flush(done) {
      try {
        const text = decoder.end();
        done(null, text === '' ? undefined : text);
      } catch (error) {
        done(withLine(file, error, decoder) as Error);
      }
    },
  });
}
