import type SQLite from 'better-sqlite3';

/** Bits per key: with 3 probes, 16 bits a key answer "maybe" for about 1 key in 200 that is not there. */
const BITS_PER_KEY = 16;
/** Room for this many keys beyond the organization's own before the filter answers "maybe" more often (never wrongly). */
const ROOM_FOR_NEW = 2_000_000;
const PROBES = 3;

/**
 * Which keys of an organization's records an import may meet again, so that a row whose key the
 * organization cannot hold skips its index lookup (the lookups missed the page cache: 12 µs a row
 * of a 200,000-row QR code file without references). A Bloom filter of every key the organization
 * holds, read from a covering index at the first row that asks, and of every key the import adds;
 * "maybe" goes to the index as before.
 *
 * It knows only what its own connection wrote: once another connection has committed between two
 * batches (PRAGMA data_version moved), every later row is looked up. Keys have one or two parts
 * (a reference; a name and a location). `find` and `add` run inside a batch's transaction;
 * `endBatch` marks its end.
 */
export class KnownKeys {
  private readonly sqlite: SQLite.Database;
  private readonly query: { select: string; count: string };
  private readonly params: unknown[];
  /** undefined: not read yet; null: given up (another connection wrote). */
  private filter: KeyFilter | null | undefined;
  private checkedThisBatch = false;
  private version: SQLite.Statement<[], number> | undefined;
  private dataVersion = 0;

  /** `select` answers the keys (one or two text columns a row) and `count` how many, both with `params`. */
  constructor(sqlite: SQLite.Database, query: { select: string; count: string }, ...params: unknown[]) {
    this.sqlite = sqlite;
    this.query = query;
    this.params = params;
  }

  /** The record `lookup` finds for the key, or undefined without asking it when no record can hold the key. */
  find<T>(a: string, b: string, lookup: () => T | undefined): T | undefined {
    return this.current()?.mayHold(a, b) === false ? undefined : lookup();
  }

  /** The import wrote a record with this key. */
  add(a: string, b = ''): void {
    this.filter?.add(a, b);
  }

  endBatch(): void {
    this.checkedThisBatch = false;
  }

  private current(): KeyFilter | null {
    if (this.filter === undefined) this.filter = this.load();
    else if (!this.checkedThisBatch && this.filter !== null && this.readVersion() !== this.dataVersion) this.filter = null;
    this.checkedThisBatch = true;
    return this.filter;
  }

  private load(): KeyFilter {
    const count = this.sqlite
      .prepare(this.query.count)
      .pluck()
      .get(...this.params) as number;
    const filter = new KeyFilter(count);
    for (const [a, b] of this.sqlite
      .prepare(this.query.select)
      .raw()
      .iterate(...this.params) as Iterable<[string, string | undefined]>) {
      filter.add(a, b ?? '');
    }
    this.dataVersion = this.readVersion();
    return filter;
  }

  private readVersion(): number {
    this.version ??= this.sqlite.prepare<[], number>('pragma data_version').pluck();
    return this.version.get() as number;
  }
}

/** The Bloom filter: PROBES bits a key by double hashing, sized for the keys there and ROOM_FOR_NEW more. */
class KeyFilter {
  private readonly bits: Int32Array;
  private readonly mask: number;

  constructor(existing: number) {
    let size = 1 << 20;
    while (size < (existing + ROOM_FOR_NEW) * BITS_PER_KEY && size < 1 << 30) size *= 2;
    this.bits = new Int32Array(size >>> 5);
    this.mask = size - 1;
  }

  add(a: string, b: string): void {
    let [h1, h2] = hashes(a, b);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  mayHold(a: string, b: string): boolean {
    let [h1, h2] = hashes(a, b);
    for (let i = 0; i < PROBES; i++, h1 = (h1 + h2) | 0) {
      const bit = h1 & this.mask;
      if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
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
