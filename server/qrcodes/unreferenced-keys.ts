import type SQLite from 'better-sqlite3';

/** Bits per key: with 3 probes, 16 bits a key answer "maybe" for about 1 key in 200 that is not there. */
const BITS_PER_KEY = 16;
/** Room for this many keys beyond the organization's own before the filter answers "maybe" more often (never wrongly). */
const ROOM_FOR_NEW = 2_000_000;
const PROBES = 3;

/**
 * Which (name, location) keys the organization's QR codes without a reference may hold: a Bloom
 * filter of every such key (the soft-deleted too), and of every key the import adds. A row whose
 * key it has never seen cannot match one, so its lookup is skipped; "maybe" goes to the index as
 * before. In an organization that holds none of them, or none by those names, an import's rows
 * cost one index insert instead of an index lookup and an insert (the lookup missed the page cache).
 *
 * It knows only what this connection wrote: when another connection commits between two batches
 * (PRAGMA data_version moves), `stillKnows` answers false and the import looks every row up.
 */
export class UnreferencedKeys {
  private readonly sqlite: SQLite.Database;
  private readonly bits: Int32Array;
  private readonly mask: number;
  private dataVersion: number;

  private constructor(sqlite: SQLite.Database, existing: number) {
    this.sqlite = sqlite;
    let size = 1 << 20;
    while (size < (existing + ROOM_FOR_NEW) * BITS_PER_KEY && size < 1 << 30) size *= 2;
    this.bits = new Int32Array(size >>> 5);
    this.mask = size - 1;
    this.dataVersion = this.currentVersion();
  }

  /** Reads every key of the organization's QR codes without a reference (the covering index qrcodes_by_name_location). */
  static load(sqlite: SQLite.Database, organizationUuid: string): UnreferencedKeys {
    const keys = sqlite.prepare('select name, location from qrcodes where organization_uuid = ? and external_reference_id is null').raw();
    const count = sqlite
      .prepare('select count(*) from qrcodes where organization_uuid = ? and external_reference_id is null')
      .pluck()
      .get(organizationUuid) as number;
    const filter = new UnreferencedKeys(sqlite, count);
    for (const [name, location] of keys.iterate(organizationUuid) as Iterable<[string, string]>) filter.add(name, location);
    return filter;
  }

  /** False once another connection has committed since the last call: the filter may have missed a key. */
  stillKnows(): boolean {
    const version = this.currentVersion();
    const same = version === this.dataVersion;
    this.dataVersion = version;
    return same;
  }

  add(name: string, location: string): void {
    let [h1, h2] = hashes(name, location);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  mayHold(name: string, location: string): boolean {
    let [h1, h2] = hashes(name, location);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  private currentVersion(): number {
    return this.sqlite.pragma('data_version', { simple: true }) as number;
  }
}

const pair: [number, number] = [0, 0];

/** Two 32-bit hashes of the key in one pass (FNV-1a and a multiplicative mix), for double hashing. */
function hashes(name: string, location: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const length = name.length + 1 + location.length;
  for (let i = 0; i < length; i++) {
    const code = i < name.length ? name.charCodeAt(i) : i === name.length ? 0 : location.charCodeAt(i - name.length - 1);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  pair[0] = a;
  pair[1] = b | 1;
  return pair;
}
