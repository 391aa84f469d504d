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
export const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'content-length',
]);

/**
 * Set on every forward and replay: how many QR Sandbox inboxes the request has already passed.
 * An inbox stores a request that carries it but does not forward it again (one hop only), so no
 * chain of inboxes, however addressed, can relay in a loop.
 */
export const RELAY_HOP_HEADER = 'X-QR-Sandbox-Forwarded';
export const MAX_RELAY_HOPS = 1;

/** The hop count a request arrived with; 0 when it did not come from an inbox. */
export function relayHops(headers: Record<string, string>): number {
  const value = headers[RELAY_HOP_HEADER.toLowerCase()];
  if (value === undefined) return 0;
  const hops = Number.parseInt(value.split(',').pop()?.trim() ?? '', 10);
  return Number.isFinite(hops) && hops > 0 ? hops : 1;
}
