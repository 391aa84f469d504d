import { notWorkbook } from './zip.ts';

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const COLON = 0x3a;

/**
 * A part's XML as it streams in, cut into tags and text without building strings: `open` and
 * `close` get a tag's bytes, `text` the raw bytes of a run of text while `capturing` (a run that
 * crosses two chunks comes whole). Attribute values never hold `>` in the parts read this way.
 */
export abstract class XmlChunks {
  /** Whether the text between this tag and the next is wanted. */
  protected capturing = false;
  private carry: Buffer | null = null;
  private pending: Buffer[] = [];

  protected abstract open(data: Buffer, name: number, nameEnd: number, end: number, selfClosing: boolean): void;
  protected abstract close(data: Buffer, name: number, nameEnd: number): void;
  protected abstract text(data: Buffer, start: number, end: number): void;

  push(chunk: Buffer): void {
    const data = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = null;
    const length = data.length;
    let pos = 0;
    while (pos < length) {
      const lt = data.indexOf(LT, pos);
      if (lt < 0) {
        if (this.capturing) this.pending.push(data.subarray(pos));
        return;
      }
      if (this.capturing) this.takeText(data, pos, lt);
      const gt = data.indexOf(GT, lt + 1);
      if (gt < 0) {
        this.carry = data.subarray(lt);
        return;
      }
      this.tag(data, lt + 1, gt);
      pos = gt + 1;
    }
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

  private tag(data: Buffer, start: number, end: number): void {
    const first = data[start];
    if (first === 0x3f || first === 0x21) return; // <?xml …?>, <!-- … -->
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
  }
}

/** Whether the bytes [start, end) spell `word` (ASCII). */
export function spells(data: Buffer, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (data[start + i] !== word.charCodeAt(i)) return false;
  return true;
}
