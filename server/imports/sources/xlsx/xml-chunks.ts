import { notWorkbook } from './zip.ts';
import { LT, GT, SLASH, COLON, BANG, EQUALS, QUOTE, APOSTROPHE } from '../xml-bytes.ts';

/** The longest tag, comment or CDATA section read (one is carried whole from chunk to chunk). */
export const MAX_MARKUP_BYTES = 8 * 1024 * 1024;

const COMMENT = { open: Buffer.from('<!--'), close: Buffer.from('-->') };
const CDATA = { open: Buffer.from('<![CDATA['), close: Buffer.from(']]>') };

/** CDATA's characters as the escaped text they stand for, so that text read either way decodes alike. */
function escapedCdata(data: Buffer, start: number, end: number): Buffer {
  const raw = data.subarray(start, end);
  if (!raw.includes(0x26) && !raw.includes(LT) && !raw.includes(GT)) return raw;
  return Buffer.from(raw.toString('latin1').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), 'latin1');
}

/**
 * A part's XML as it streams in, cut into tags and text without building strings: `open` and
 * `close` get a tag's bytes, `text` the raw bytes of a run of text while `capturing` (a run that
 * crosses two chunks comes whole; a comment splits it in two runs; a CDATA section is a run of
 * its own, escaped). Attribute values never hold `>` in the parts read this way.
 */
export abstract class XmlChunks {
  /** Whether the text between this tag and the next is wanted. */
  protected capturing = false;
  /** Set by a subclass to stop reading the chunk after the current tag; resume() reads on. */
  protected paused = false;
  private carry: Buffer | null = null;
  private pending: Buffer[] = [];

  protected abstract open(data: Buffer, name: number, nameEnd: number, end: number, selfClosing: boolean): void;
  protected abstract close(data: Buffer, name: number, nameEnd: number): void;
  protected abstract text(data: Buffer, start: number, end: number): void;

  push(chunk: Buffer): void {
    const data = this.carry === null ? chunk : chunk.length === 0 ? this.carry : Buffer.concat([this.carry, chunk]);
    this.carry = null;
    const length = data.length;
    let pos = 0;
    while (pos < length && !this.paused) {
      const lt = data.indexOf(LT, pos);
      if (lt < 0) {
        if (this.capturing) this.pending.push(data.subarray(pos));
        return;
      }
      if (this.capturing) this.takeText(data, pos, lt);
      const gt = data.indexOf(GT, lt + 1);
      pos = gt < 0 ? -1 : data[lt + 1] === BANG ? this.markup(data, lt, gt) : this.tag(data, lt + 1, gt);
      if (pos < 0) {
        this.carryFrom(data, lt);
        return;
      }
    }
    if (pos < length) this.carry = data.subarray(pos);
  }

  /**
   * `<!…>` at `lt` (its first `>` at `gt`): a comment or CDATA section read to its end (CDATA's
   * characters are text), anything else (<!DOCTYPE …>) skipped; where reading goes on, or -1 when
   * the chunk cuts it short.
   */
  private markup(data: Buffer, lt: number, gt: number): number {
    for (const kind of [COMMENT, CDATA]) {
      const prefix = Math.min(kind.open.length, data.length - lt);
      if (data.compare(kind.open, 0, prefix, lt, lt + prefix) !== 0) continue;
      if (prefix < kind.open.length) return -1;
      const close = data.indexOf(kind.close, lt + kind.open.length);
      if (close < 0) return -1;
      if (kind === CDATA && this.capturing && close > lt + kind.open.length) {
        const text = escapedCdata(data, lt + kind.open.length, close);
        this.takeText(text, 0, text.length);
      }
      return close + kind.close.length;
    }
    return gt + 1;
  }

  private carryFrom(data: Buffer, lt: number): void {
    if (data.length - lt > MAX_MARKUP_BYTES) {
      throw notWorkbook(`its XML has a tag, comment or CDATA section longer than ${MAX_MARKUP_BYTES / (1024 * 1024)} MB`);
    }
    this.carry = data.subarray(lt);
  }

  /** Reads on from where the subclass paused. */
  resume(): void {
    this.paused = false;
    this.push(Buffer.alloc(0));
  }

  /** The part has ended: a tag cut short is damage. */
  finish(what: string): void {
    if (this.carry !== null) throw notWorkbook(`${what} ends in the middle of a tag`);
  }

  private takeText(data: Buffer, start: number, end: number): void {
    if (this.pending.length === 0) {
      if (end > start) this.text(data, start, end);
      return;
    }
    this.pending.push(data.subarray(start, end));
    const whole = Buffer.concat(this.pending);
    this.pending = [];
    this.text(whole, 0, whole.length);
  }

  /** The tag between `<` and `>` [start, end): where reading goes on. */
  private tag(data: Buffer, start: number, end: number): number {
    const first = data[start];
    if (first === 0x3f) return end + 1; // <?xml …?>
    const closing = first === SLASH;
    let name = closing ? start + 1 : start;
    let nameEnd = name;
    while (nameEnd < end) {
      const byte = data[nameEnd] ?? 0;
      if (byte <= 0x20 || byte === SLASH) break;
      if (byte === COLON) name = nameEnd + 1;
      nameEnd++;
    }
    const initial = (data[name] ?? 0) | 0x20;
    if (nameEnd === name || !((initial >= 0x61 && initial <= 0x7a) || initial === 0x7f || (data[name] ?? 0) >= 0x80)) {
      throw notWorkbook('its XML is damaged (a tag without a proper name)');
    }
    if (closing) this.close(data, name, nameEnd);
    else this.open(data, name, nameEnd, end, data[end - 1] === SLASH);
    return end + 1;
  }
}

/** Whether the bytes [start, end) spell `word` (ASCII). */
export function spells(data: Buffer, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (data[start + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Calls `each` with the byte ranges of every attribute's name and value in a tag's bytes [from, end). */
export function eachAttribute(
  data: Buffer,
  from: number,
  end: number,
  each: (key: number, keyEnd: number, value: number, valueEnd: number) => void,
): void {
  let i = from;
  while (i < end) {
    while (i < end && (data[i] ?? 0) <= 0x20) i++;
    const key = i;
    while (i < end && data[i] !== EQUALS && (data[i] ?? 0) > 0x20 && data[i] !== SLASH) i++;
    const keyEnd = i;
    while (i < end && data[i] !== EQUALS) {
      if (data[i] === SLASH) return;
      i++;
    }
    i++;
    while (i < end && data[i] !== QUOTE && data[i] !== APOSTROPHE) i++;
    const quote = data[i];
    const value = ++i;
    while (i < end && data[i] !== quote) i++;
    if (keyEnd > key && i <= end) each(key, keyEnd, value, i);
    i++;
  }
}
