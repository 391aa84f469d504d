import type SQLite from 'better-sqlite3';

/** Bits per key: with 3 probes, 16 bits a key answer "maybe" for about 1 key in 200 that is not there. */
const BITS_PER_KEY = 16;
/** Room for this many keys beyond the organization's own before the filter answers "maybe" more often (never wrongly). */
const ROOM_FOR_NEW = 2_000_000;
const PROBES = 3;

/**
 * Which keys of an organization's records an import may meet again: a Bloom filter of every key
 * the organization holds (read once, from a covering index) and of every key the import adds. A
 * row whose key it has never seen cannot match a record, so the writer skips that lookup; "maybe"
 * goes to the index as before. Into an organization that holds none of the file's keys, each row
 * then costs an index insert instead of a lookup and an insert (the lookups missed the page cache:
 * 12 µs a row of a 200,000-row QR code file without references).
 *
 * It knows only what its own connection wrote: once another connection has committed between two
 * batches (PRAGMA data_version moved), `stillKnows` answers false and the writer looks every row up.
 * Keys have one or two parts (a reference; a name and a location).
 */
export class KnownKeys {
  private readonly version: SQLite.Statement<[], number>;
  private readonly bits: Int32Array;
  private readonly mask: number;
  private dataVersion: number;

  private constructor(sqlite: SQLite.Database, existing: number) {
    this.version = sqlite.prepare<[], number>('pragma data_version').pluck();
    let size = 1 << 20;
    while (size < (existing + ROOM_FOR_NEW) * BITS_PER_KEY && size < 1 << 30) size *= 2;
    this.bits = new Int32Array(size >>> 5);
    this.mask = size - 1;
    this.dataVersion = this.currentVersion();
  }

  /**
   * Reads the keys `select` answers (one or two text columns a row) and counts them with `count`
   * (both with the same parameters), inside the writer's transaction.
   */
  static load(sqlite: SQLite.Database, query: { select: string; count: string }, ...params: unknown[]): KnownKeys {
    const count = sqlite
      .prepare(query.count)
      .pluck()
      .get(...params) as number;
    const filter = new KnownKeys(sqlite, count);
    for (const [a, b] of sqlite
      .prepare(query.select)
      .raw()
      .iterate(...params) as Iterable<[string, string | undefined]>) {
      filter.add(a, b);
    }
    return filter;
  }

  /** False once another connection has committed since the last call: the filter may have missed a key. */
  stillKnows(): boolean {
    const version = this.currentVersion();
    const same = version === this.dataVersion;
    this.dataVersion = version;
    return same;
  }

  add(a: string, b = ''): void {
    let [h1, h2] = hashes(a, b);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  mayHold(a: string, b = ''): boolean {
    let [h1, h2] = hashes(a, b);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  private currentVersion(): number {
    return this.version.get() as number;
  }
}

const pair: [number, number] = [0, 0];

/** Two 32-bit hashes of the key in one pass (FNV-1a and a multiplicative mix), for double hashing. */
function hashes(first: string, second: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const length = first.length + 1 + second.length;
  for (let i = 0; i < length; i++) {
    const code = i < first.length ? first.charCodeAt(i) : i === first.length ? 0 : second.charCodeAt(i - first.length - 1);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  pair[0] = a;
  pair[1] = b | 1;
  return pair;
}
