declare global {
  interface String {
    /** ES2024: false when the text has a lone surrogate (Node 20+). */
    isWellFormed(): boolean;
  }
}

/**
 * NFC leaves text below U+0300 as it is (no combining mark, no Hangul jamo, no singleton there),
 * so only text with a character from U+0300 up pays for normalize(): an import normalises every
 * cell, and most cells are ASCII or Latin-1.
 */
const MAY_CHANGE_IN_NFC = /[\u0300-\uffff]/;

/** The text in Unicode NFC: "café" typed on a Mac (e + U+0301) and on Windows (U+00E9) become one. */
export function toNfc(text: string): string {
  return MAY_CHANGE_IN_NFC.test(text) ? text.normalize('NFC') : text;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where the text has a lone surrogate (which UTF-8 cannot store: it would become U+FFFD), or -1. */
export function brokenCharacterAt(text: string): number {
  if (text.isWellFormed()) return -1;
  return LONE_SURROGATE.exec(text)?.index ?? -1;
}

/** How a field with a lone surrogate is refused: the field's name goes before it. */
export function brokenCharacterMessage(at: number, advice: string): string {
  return `contains a broken character (an unpaired UTF-16 surrogate) at character ${at + 1}: ${advice}`;
}
