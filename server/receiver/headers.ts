/** Node's flat rawHeaders list as [name, value] pairs, order, case and repeats kept. */
export function headerPairs(rawHeaders: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '']);
  return pairs;
}

export function parsePairs(json: string | null): Array<[string, string]> {
  if (json === null) return [];
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string');
}

/** Names lowercased, repeats joined with ", " (how HTTP folds them). */
export function headerObject(pairs: Array<[string, string]>): Record<string, string> {
  const object: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    object[key] = key in object ? `${object[key]}, ${value}` : value;
  }
  return object;
}

/** Headers that describe one connection or one hop and are not relayed. */
export const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect', 'content-length']);
