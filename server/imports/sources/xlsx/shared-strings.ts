import type { Readable } from 'node:stream';
import { spells, XmlChunks } from './xml-chunks.ts';
import { isPlainText, NOT_UTF8, unstorableCharacter, utf8Text, xmlText } from './xml-text.ts';
import { entryStream, type ZipEntry } from './zip.ts';

/** A shared string this long (UTF-8 bytes) or longer is decoded once and handed to every cell that uses it. */
export const LONG_SHARED_STRING_BYTES = 1024;
/** Bytes of long shared strings kept decoded; past it a long string is decoded per cell (batches stay bounded: BATCH_TEXT_CHARS). */
export const DECODED_SHARED_STRING_BYTES = 32 * 1024 * 1024;

/**
 * A workbook's shared strings kept off the JavaScript heap: their UTF-8 bytes end to end in one
 * Buffer and where each ends. A 1,000,000-row sheet of distinct addresses has millions of them;
 * as strings they outgrew an import worker's heap. A short string is decoded when a cell asks for
 * it; a long one once, then every cell that uses it holds the same string (a 1 MB string used by
 * 10,000 cells costs 1 MB, not 10 GB).
 */
export class SharedStrings {
  private bytes: Buffer;
  private used = 0;
  private ends = new Uint32Array(1024);
  private readonly decoded = new Map<number, string>();
  private decodedBytes = 0;
  /** The strings that hold what cell text cannot (a NUL, a lone surrogate), and what. */
  private readonly unstorables = new Map<number, string>();
  count = 0;

  constructor(expectedBytes = 64 * 1024) {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, expectedBytes));
  }

  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    const end = this.ends[index] as number;
    if (end - start < LONG_SHARED_STRING_BYTES) return this.decode(index, start, end);
    const known = this.decoded.get(index);
    if (known !== undefined) return known;
    const text = this.decode(index, start, end);
    if (this.decodedBytes + (end - start) <= DECODED_SHARED_STRING_BYTES) {
      this.decoded.set(index, text);
      this.decodedBytes += end - start;
    }
    return text;
  }

  /** String `index`'s bytes as text; bytes that are not UTF-8 are found here, the first time a cell asks, and make it unstorable. */
  private decode(index: number, start: number, end: number): string {
    const text = utf8Text(this.bytes, start, end);
    if (text !== null) return text;
    this.unstorables.set(index, NOT_UTF8);
    return '';
  }

  /** What string `index` holds that cell text cannot, or undefined (ask after get: it finds bytes that are not UTF-8). */
  unstorable(index: number): string | undefined {
    return this.unstorables.size === 0 ? undefined : this.unstorables.get(index);
  }

  addBytes(source: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.used += source.copy(this.bytes, this.used, start, end);
    this.endString();
  }

  addText(text: string, unstorable = unstorableCharacter(text)): void {
    if (unstorable !== null) this.unstorables.set(this.count, unstorable);
    this.room(Buffer.byteLength(text));
    this.used += this.bytes.write(text, this.used);
    this.endString();
  }

  private endString(): void {
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  private room(bytes: number): void {
    if (this.used + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + bytes));
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}

/**
 * Reads xl/sharedStrings.xml as it streams: each `<si>` is one string, the text of its `<t>`
 * runs end to end (rich text), phonetic guides (`<rPh>`) left out, as Excel shows the cell.
 */
export class SharedStringsReader extends XmlChunks {
  readonly strings: SharedStrings;
  private inItem = false;
  private inPhonetic = false;
  /** The item's text so far when it has more than one run or needs decoding; null: none yet. */
  private parts: string | null = null;
  private plain: { data: Buffer; start: number; end: number } | null = null;
  /** Whether the item's text needed decoding and had bytes that are not UTF-8. */
  private notUtf8 = false;

  constructor(expectedBytes: number) {
    super();
    this.strings = new SharedStrings(expectedBytes);
  }

  protected open(data: Buffer, name: number, nameEnd: number, _end: number, selfClosing: boolean): void {
    if (spells(data, name, nameEnd, 'si')) {
      this.inItem = true;
      this.parts = null;
      this.plain = null;
      this.notUtf8 = false;
      if (selfClosing) this.endItem();
    } else if (spells(data, name, nameEnd, 'rPh')) this.inPhonetic = !selfClosing;
    else if (spells(data, name, nameEnd, 't')) this.capturing = this.inItem && !this.inPhonetic && !selfClosing;
  }

  protected close(data: Buffer, name: number, nameEnd: number): void {
    if (spells(data, name, nameEnd, 't')) this.capturing = false;
    else if (spells(data, name, nameEnd, 'rPh')) this.inPhonetic = false;
    else if (spells(data, name, nameEnd, 'si')) this.endItem();
  }

  protected text(data: Buffer, start: number, end: number): void {
    if (this.parts === null && this.plain === null && isPlainText(data, start, end)) {
      this.plain = { data, start, end };
      return;
    }
    this.parts = (this.parts ?? this.takePlain()) + xmlText(this.utf8(data, start, end));
  }

  private takePlain(): string {
    const plain = this.plain;
    this.plain = null;
    return plain === null ? '' : this.utf8(plain.data, plain.start, plain.end);
  }

  private utf8(data: Buffer, start: number, end: number): string {
    const text = utf8Text(data, start, end);
    if (text === null) this.notUtf8 = true;
    return text ?? '';
  }

  private endItem(): void {
    if (!this.inItem) return;
    this.inItem = false;
    this.capturing = false;
    if (this.parts !== null) this.strings.addText(this.parts, this.notUtf8 ? NOT_UTF8 : undefined);
    else if (this.plain !== null) this.strings.addBytes(this.plain.data, this.plain.start, this.plain.end);
    else this.strings.addText('');
    this.parts = null;
    this.plain = null;
  }
}

/** A workbook's shared strings part, read as far as cells need it (all of it for an import, a few for a preview). */
export class SharedStringsPart {
  private readonly reader: SharedStringsReader;
  private readonly file: string;
  private readonly entry: ZipEntry;
  private chunks: AsyncIterator<Buffer> | null = null;
  private stream: Readable | null = null;
  complete = false;

  constructor(file: string, entry: ZipEntry) {
    this.file = file;
    this.entry = entry;
    // The decoded text is never longer than the XML (the size was checked against the limits first).
    this.reader = new SharedStringsReader(Math.min(entry.uncompressedSize, 64 * 1024 * 1024));
  }

  get strings(): SharedStrings {
    return this.reader.strings;
  }

  /** Reads on until the string at `index` is there, or the part ends. */
  async readUpTo(index: number): Promise<void> {
    if (this.chunks === null && !this.complete) {
      const stream = entryStream(this.file, this.entry);
      if (stream === null) this.complete = true;
      else {
        this.stream = stream.output;
        this.chunks = (stream.output as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      }
    }
    while (!this.complete && this.reader.strings.count <= index && this.chunks !== null) {
      const next = await this.chunks.next();
      if (next.done) {
        this.reader.finish('the shared strings');
        this.complete = true;
        this.stream = null;
      } else this.reader.push(next.value);
    }
  }

  /** Stops reading (a preview that had enough). */
  close(): void {
    this.stream?.destroy();
  }
}
