import { eachAttribute, XmlChunks } from './xml-chunks.ts';
import { utf8Text, xmlText } from './xml-text.ts';

const NONE: ReadonlySet<string> = new Set();

/** A tag of a small part: its name without prefix, its attributes by their names as written, and the wanted tag it sits in. */
export interface PartTag {
  name: string;
  attributes: Map<string, string>;
  /** The attributes whose bytes are not UTF-8 (decoded with U+FFFD in `attributes`). */
  notUtf8: ReadonlySet<string>;
  /** The nearest enclosing tag among the wanted names (cellXfs around an xf), or null. */
  inside: string | null;
}

/** Collects the wanted tags of a part with the byte scanner the sheets use: linear in the part, whatever it holds. */
class TagCollector extends XmlChunks {
  readonly tags: PartTag[] = [];
  private readonly wanted: ReadonlySet<string>;
  private readonly within: string[] = [];

  constructor(wanted: readonly string[]) {
    super();
    this.wanted = new Set(wanted);
  }

  protected open(data: Buffer, name: number, nameEnd: number, end: number, selfClosing: boolean): void {
    if (nameEnd - name > 64) return;
    const tag = data.toString('latin1', name, nameEnd);
    if (!this.wanted.has(tag)) return;
    const attributes = new Map<string, string>();
    let notUtf8 = NONE;
    eachAttribute(data, nameEnd, selfClosing ? end - 1 : end, (key, keyEnd, value, valueEnd) => {
      const name = data.toString('utf8', key, keyEnd);
      const text = utf8Text(data, value, valueEnd);
      if (text === null) notUtf8 = new Set([...notUtf8, name]);
      attributes.set(name, xmlText(text ?? data.toString('utf8', value, valueEnd)));
    });
    this.tags.push({ name: tag, attributes, notUtf8, inside: this.within.at(-1) ?? null });
    if (!selfClosing) this.within.push(tag);
  }

  protected close(data: Buffer, name: number, nameEnd: number): void {
    if (nameEnd - name > 64) return;
    const tag = data.toString('latin1', name, nameEnd);
    const at = this.within.lastIndexOf(tag);
    if (at >= 0) this.within.length = at;
  }

  protected text(): void {}
}

/** The tags named `wanted` (any namespace prefix) in a small part's XML, in document order. */
export function partTags(xml: Buffer, wanted: readonly string[], what: string): PartTag[] {
  const collector = new TagCollector(wanted);
  collector.push(xml);
  collector.finish(what);
  return collector.tags;
}
