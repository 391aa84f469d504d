import { LT, GT, AMP, QUOTE, SLASH, BANG, HASH, COLON, UNDERSCORE } from '../xml-bytes.ts';
/**
 * SheetJS undoes Excel's `_xHHHH_` escapes (`_x0041_` for "A", `_x0000_` for a NUL) in an .ods's
 * cell text too, after it resolves the XML's entities; OpenDocument has no such escape, and
 * LibreOffice shows `_x0041_` as the seven characters typed. So before SheetJS reads content.xml,
 * every underscore in cell text that could begin one (`_`, or a character reference SheetJS reads
 * as `_`, followed by `x` and four hex digits and `_`, or by a tag, comment or character
 * reference that could hide them) is written `_x005F_`, Excel's escape of an underscore: SheetJS
 * undoes it to the underscore, and the cell reads as its XML says, entities resolved. Cell text is
 * what SheetJS unescapes: the text inside `<text:p>` and the value of an `office:string-value`
 * attribute; nothing else (sheet and style names, number formats) is changed.
 */

const ESCAPED_UNDERSCORE = Buffer.from('_x005F_');
/** What content.xml holds when some cell text may need this: without any of them, it is read as it is. */
const SIGNS = ['_x', '_X', '_<', '&#'];
/** An attribute of a tag, as SheetJS reads one (double quotes only), with its value's place. */
const ATTRIBUTE = /([^\s=/<>"]+)\s*=\s*"([^"]*)"/dg;

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

/** `content`'s next `needle` at or after `from`, each search remembered: the scan moves forward only, so all of them together read the buffer once. */
class NextOf {
  private at = -2;
  private readonly content: Buffer;
  private readonly needle: string | number;

  constructor(content: Buffer, needle: string | number) {
    this.content = content;
    this.needle = needle;
  }

  from(from: number): number {
    if (this.at !== -1 && this.at < from) this.at = this.content.indexOf(this.needle, from);
    return this.at;
  }
}

/** content.xml with cell text's underscores that SheetJS would read as part of an `_xHHHH_` escape written `_x005F_`; the same buffer when it has none. */
export function odsLiteralText(content: Buffer): Buffer {
  if (SIGNS.every((sign) => !content.includes(sign))) return content;
  return new LiteralText(content).run();
}

class LiteralText {
  private readonly content: Buffer;
  private readonly pieces: Buffer[] = [];
  /** content before this is in `pieces`. */
  private copied = 0;
  private readonly lt: NextOf;
  private readonly quote: NextOf;
  private readonly underscore: NextOf;
  private readonly amp: NextOf;
  private readonly stringValue: NextOf;

  constructor(content: Buffer) {
    this.content = content;
    this.lt = new NextOf(content, LT);
    this.quote = new NextOf(content, QUOTE);
    this.underscore = new NextOf(content, UNDERSCORE);
    this.amp = new NextOf(content, AMP);
    this.stringValue = new NextOf(content, 'string-value');
  }

  run(): Buffer {
    const { content } = this;
    const end = content.length;
    let pos = 0;
    /** How many <text:p> are open: their text is a cell's. */
    let paragraphs = 0;
    while (pos < end) {
      const lt = this.lt.from(pos);
      if (paragraphs > 0) this.escapeText(pos, lt < 0 ? end : lt);
      if (lt < 0) break;
      if (content[lt + 1] === BANG && this.startsWith(lt, '<!--')) {
        pos = this.after(lt + 4, '-->');
        continue;
      }
      if (content[lt + 1] === BANG && this.startsWith(lt, '<![CDATA[')) {
        pos = this.after(lt + 9, ']]>');
        continue;
      }
      const gt = this.tagEnd(lt);
      const closing = content[lt + 1] === SLASH;
      if (this.isParagraph(lt + (closing ? 2 : 1), gt)) {
        if (closing) paragraphs = Math.max(0, paragraphs - 1);
        else if (content[gt - 1] !== SLASH) paragraphs++;
      } else if (!closing) this.escapeStringValues(lt, gt);
      pos = gt + 1;
    }
    if (this.pieces.length === 0) return content;
    this.pieces.push(content.subarray(this.copied));
    return Buffer.concat(this.pieces);
  }

  private startsWith(at: number, text: string): boolean {
    return this.content.toString('latin1', at, at + text.length) === text;
  }

  /** Just after the next `marker` from `from`, or the end. */
  private after(from: number, marker: string): number {
    const at = this.content.indexOf(marker, from);
    return at < 0 ? this.content.length : at + marker.length;
  }

  /** The `>` that ends the tag begun at `lt` (one in a quoted value does not), or the end. */
  private tagEnd(lt: number): number {
    let from = lt + 1;
    for (;;) {
      const gt = this.content.indexOf(GT, from);
      if (gt < 0) return this.content.length;
      const open = this.quote.from(from);
      if (open < 0 || open > gt) return gt;
      const close = this.quote.from(open + 1);
      if (close < 0) return this.content.length;
      from = close + 1;
    }
  }

  /** Whether the element named from `start` is a paragraph, as SheetJS names it: `p` after its prefix, anything from an `_` on dropped. */
  private isParagraph(start: number, gt: number): boolean {
    const { content } = this;
    let local = start;
    let i = start;
    for (; i < gt; i++) {
      const byte = content[i] as number;
      if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === SLASH) break;
      if (byte === COLON) local = i + 1;
    }
    return i > local && content[local] === 0x70 && (i === local + 1 || content[local + 1] === UNDERSCORE);
  }

  /** The values of the tag's `string-value` attributes (office:string-value), which SheetJS takes for a cell's text. */
  private escapeStringValues(lt: number, gt: number): void {
    const at = this.stringValue.from(lt);
    if (at < 0 || at >= gt) return;
    const tag = this.content.toString('latin1', lt, gt);
    for (const match of tag.matchAll(ATTRIBUTE)) {
      const name = match[1] as string;
      const value = match.indices?.[2];
      if (value && name.slice(name.lastIndexOf(':') + 1) === 'string-value') this.escapeText(lt + value[0], lt + value[1]);
    }
  }

  /** Cell text in [start, end): each underscore, or reference SheetJS reads as one, that could begin an escape, written `_x005F_`. */
  private escapeText(start: number, end: number): void {
    let pos = start;
    for (;;) {
      const underscore = this.underscore.from(pos);
      const amp = this.amp.from(pos);
      const next = Math.min(underscore < 0 ? end : underscore, amp < 0 ? end : amp);
      if (next >= end) return;
      const after = next === underscore ? next + 1 : this.underscoreReferenceEnd(next, end);
      if (after > next && this.mayBeginEscape(after)) {
        this.pieces.push(this.content.subarray(this.copied, next), ESCAPED_UNDERSCORE);
        this.copied = after;
      }
      pos = Math.max(after, next + 1);
    }
  }

  /**
   * The end of the character reference at `amp` when SheetJS reads it as `_` (it takes `&#x…;`
   * as hex only with a lower-case x, and the digits up to the first that is not one), else `amp`.
   */
  private underscoreReferenceEnd(amp: number, end: number): number {
    const { content } = this;
    if (content[amp + 1] !== HASH) return amp;
    let i = amp + 2;
    const hex = content[i] === 0x78;
    if (hex || content[i] === 0x58) i++;
    const digits = i;
    while (i < end && isHex(content[i] as number)) i++;
    if (i === digits || content[i] !== 0x3b) return amp;
    let value = 0;
    for (let d = digits; d < i && value <= 0xff; d++) {
      const byte = content[d] as number;
      if (hex) value = value * 16 + Number.parseInt(String.fromCharCode(byte), 16);
      else if (isDigit(byte)) value = value * 10 + (byte - 0x30);
      else break;
    }
    return value === UNDERSCORE ? i + 1 : amp;
  }

  /** Whether the bytes from `at` may read, in SheetJS, as `xHHHH_` (x in either case): they do, or a tag, comment or character reference comes first that could hide them. */
  private mayBeginEscape(at: number): boolean {
    for (let k = 0; k < 6; k++) {
      const byte = this.content[at + k];
      if (byte === undefined) return false;
      // A tag or comment vanishes from the text, and a character reference may be any character (a named entity is none of these).
      if (byte === LT || (byte === AMP && this.content[at + k + 1] === HASH)) return true;
      const fits = k === 0 ? byte === 0x78 || byte === 0x58 : k === 5 ? byte === UNDERSCORE : isHex(byte);
      if (!fits) return false;
    }
    return true;
  }
}
