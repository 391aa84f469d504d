/** The start of a message body as a list carries it: bounded in bytes once JSON-escaped, whatever the bytes are. */

/** Bytes one UTF-16 code unit takes in a JSON string (UTF-8); control characters escape to six (\u0001), lone surrogates too. */
function jsonCost(code: number): number {
  if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return 2;
  if (code < 0x20) return 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6;
  return 3;
}

/** The longest start of `text` whose JSON string (quotes included) is at most `maxBytes` of UTF-8. */
export function jsonBoundedStart(text: string, maxBytes: number): string {
  let bytes = 2;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const next = text.charCodeAt(end + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const cost = pair ? 4 : jsonCost(code);
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}

export interface BodyExcerpt {
  body: string;
  body_base64: string | null;
  body_excerpted: boolean;
}

/**
 * `head` is the body's first bytes (all of them when `size` says so). A character cut by the end of
 * `head` is left out; bytes that are not UTF-8 come as base64 too.
 */
export function bodyExcerpt(head: Buffer, size: number, maxJsonBytes: number): BodyExcerpt {
  const whole = head.length >= size;
  const text = whole ? head.toString('utf8') : new TextDecoder('utf-8').decode(head, { stream: true });
  const body = jsonBoundedStart(text, maxJsonBytes);
  return {
    body,
    body_base64: isUtf8Start(head, whole) ? null : head.toString('base64'),
    body_excerpted: !whole || body.length < text.length,
  };
}

function isUtf8Start(bytes: Buffer, whole: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !whole });
    return true;
  } catch {
    return false;
  }
}
