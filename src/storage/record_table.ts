/**
 * A collection's records by their canonical `_id` key, in insertion order: the subset of
 * `Map<string, R>` the collection uses (get, has, set, delete, clear, size, values), with the
 * same semantics, iterators included, but cheaper for large collections.
 *
 * A `Map` with string keys finds an entry by walking a bucket chain and reading each candidate
 * key string: at 100,000 records and more, every insert and lookup costs several cache misses,
 * and the garbage collector visits three slots per entry. Here the records sit in one array in
 * insertion order (`null` where one was deleted, until the array is compacted), and an
 * open-addressing hash table of (hash, position) pairs in an `Int32Array` (linear probing,
 * deletion by backward shift, at most half full) finds them: a miss reads one or two adjacent
 * pairs and no string; a hit reads the record's `id` once. The hash is computed from the key's
 * characters (FNV-1a, then murmur3's finaliser to spread it over the low bits).
 *
 * Iterators are live, as a `Map`'s: they see records added after they were created and skip
 * records deleted before they reach them. A compaction (or `clear`) starts a new generation of
 * the order array; the old generation keeps the positions that were holes (or that it was
 * cleared), so an iterator still on it moves to the matching place in the new one.
 */

/** A record keyed by its `id`. */
export interface Keyed {
  /** The key the record is stored under (immutable while stored). */
  readonly id: string;
}

/** Fewer holes than this are never compacted away. */
const MIN_HOLES_TO_COMPACT = 64;
/** The smallest hash table (pairs). */
const MIN_CAPACITY = 16;

/** One generation of the insertion-order array, and how its positions map to the next one. */
interface Generation<R> {
  /** Records in insertion order; null where one was deleted. */
  readonly order: Array<R | null>;
  /** The generation that replaced this one (null while current). */
  next: Generation<R> | null;
  /** When replaced by a compaction: the positions that were holes, ascending. */
  holes: Int32Array | null;
  /** When replaced by `clear`: every position is gone. */
  cleared: boolean;
}

/** Records by key in insertion order (see module comment). */
export class RecordTable<R extends Keyed> {
  private gen: Generation<R> = newGeneration();
  /** Pairs (hash, position + 1); position + 1 === 0 marks an empty slot. */
  private slots = new Int32Array(2 * MIN_CAPACITY);
  /** Pairs the table can hold, minus one (a power of two minus one). */
  private mask = MIN_CAPACITY - 1;
  private live = 0;
  private holeCount = 0;

  /** Number of records. */
  get size(): number {
    return this.live;
  }

  /** The record stored under `key`. */
  get(key: string): R | undefined {
    const at = this.find(key, hashOf(key));
    return at < 0 ? undefined : (this.gen.order[this.slots[at + 1]! - 1] as R);
  }

  /** True when a record is stored under `key`. */
  has(key: string): boolean {
    return this.find(key, hashOf(key)) >= 0;
  }

  /**
   * Stores `rec` under `key`, which must be `rec.id`: last in insertion order when new, in the
   * place of the record it replaces otherwise.
   */
  set(key: string, rec: R): this {
    if (key !== rec.id) throw new Error(`record table: key ${JSON.stringify(key)} is not the record's id`);
    const hash = hashOf(key);
    const at = this.find(key, hash);
    const order = this.gen.order;
    if (at >= 0) {
      order[this.slots[at + 1]! - 1] = rec;
      return this;
    }
    if (2 * (this.live + 1) > this.mask + 1) this.resize(2 * (this.mask + 1));
    this.place(hash, order.length);
    order.push(rec);
    this.live++;
    return this;
  }

  /** Removes the record stored under `key`; false when there is none. */
  delete(key: string): boolean {
    const at = this.find(key, hashOf(key));
    if (at < 0) return false;
    const slots = this.slots;
    this.gen.order[slots[at + 1]! - 1] = null;
    this.live--;
    this.holeCount++;
    // Backward shift: pull later pairs of the probe run into the gap, so lookups never need
    // tombstones.
    const mask = this.mask;
    let gap = at >>> 1;
    let i = gap;
    for (;;) {
      i = (i + 1) & mask;
      if (slots[2 * i + 1] === 0) break;
      const home = slots[2 * i]! & mask;
      // The pair at i may move to the gap unless its home lies cyclically in (gap, i].
      const stays = gap <= i ? gap < home && home <= i : gap < home || home <= i;
      if (stays) continue;
      slots[2 * gap] = slots[2 * i]!;
      slots[2 * gap + 1] = slots[2 * i + 1]!;
      gap = i;
    }
    slots[2 * gap] = 0;
    slots[2 * gap + 1] = 0;
    // Compacting copies the live records: waiting until holes outnumber them threefold keeps
    // that copy small (a TTL pass deleting a million records compacts a few small remainders,
    // not half the collection at a time, which held up requests in the middle of the pass).
    if (this.holeCount >= MIN_HOLES_TO_COMPACT && this.holeCount > 3 * this.live) this.compact();
    return true;
  }

  /** Removes every record. */
  clear(): void {
    const old = this.gen;
    this.gen = newGeneration();
    old.next = this.gen;
    old.cleared = true;
    this.slots = new Int32Array(2 * MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
    this.live = 0;
    this.holeCount = 0;
  }

  /** The records in insertion order, read lazily (live, as a `Map`'s iterator). */
  values(): IterableIterator<R> {
    return new RecordIterator(this.gen);
  }

  /** The index in `slots` of the pair of `key` (whose hash is `hash`); -1 when absent. */
  private find(key: string, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const order = this.gen.order;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const position = slots[2 * i + 1]!;
      if (position === 0) return -1;
      if (slots[2 * i] === hash && (order[position - 1] as R).id === key) return 2 * i;
    }
  }

  /** Puts the pair (hash, position) in the first free slot of its probe run. */
  private place(hash: number, position: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = hash & mask;
    while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = hash;
    slots[2 * i + 1] = position + 1;
  }

  /** Rebuilds the hash table with `capacity` pairs, positions mapped through `moved` when given. */
  private resize(capacity: number, moved?: Int32Array): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      const position = old[i + 1]! - 1;
      if (position >= 0) this.place(old[i]!, moved ? moved[position]! : position);
    }
  }

  /** Drops the holes of the order array (a new generation) and renumbers the hash table. */
  private compact(): void {
    const old = this.gen;
    const order: Array<R | null> = [];
    const holes = new Int32Array(this.holeCount);
    const moved = new Int32Array(old.order.length);
    let h = 0;
    for (let i = 0; i < old.order.length; i++) {
      const rec = old.order[i] as R | null;
      if (rec === null) {
        holes[h++] = i;
      } else {
        moved[i] = order.length;
        order.push(rec);
      }
    }
    this.gen = { order, next: null, holes: null, cleared: false };
    old.next = this.gen;
    old.holes = holes;
    this.holeCount = 0;
    let capacity = this.mask + 1;
    while (capacity > MIN_CAPACITY && 8 * this.live < capacity) capacity >>>= 1;
    this.resize(capacity, moved);
  }
}

/** An iterator over the records, following compactions and clears (see module comment). */
class RecordIterator<R extends Keyed> implements IterableIterator<R> {
  private gen: Generation<R> | null;
  private position = 0;

  constructor(gen: Generation<R>) {
    this.gen = gen;
  }

  next(): IteratorResult<R, undefined> {
    const gen = this.gen;
    if (gen === null || gen.next !== null) return this.nextAfterChange();
    const order = gen.order;
    let position = this.position;
    while (position < order.length) {
      const rec = order[position++] as R | null;
      if (rec !== null) {
        this.position = position;
        return { value: rec, done: false };
      }
    }
    return this.finish();
  }

  /** `next` when the generation was replaced (compacted or cleared) or the iterator is done. */
  private nextAfterChange(): IteratorResult<R, undefined> {
    let gen = this.gen;
    if (gen === null) return { value: undefined, done: true };
    let position = this.position;
    while (gen.next !== null) {
      position = gen.cleared ? 0 : position - countBelow(gen.holes!, position);
      gen = gen.next;
    }
    this.gen = gen;
    this.position = position;
    return this.next();
  }

  /** Ends the iteration for good, as a Map's iterator ends (records added later are not seen). */
  private finish(): IteratorResult<R, undefined> {
    this.gen = null;
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): IterableIterator<R> {
    return this;
  }
}

function newGeneration<R>(): Generation<R> {
  return { order: [], next: null, holes: null, cleared: false };
}

/** The number of values in the ascending `sorted` below `n`. */
function countBelow(sorted: Int32Array, n: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The hash of a key: FNV-1a over its UTF-16 code units, then murmur3's 32-bit finaliser. */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
