/**
 * A collection's records by their canonical `_id` key, in insertion order: the subset of
 * `Map<string, R>` the collection uses (get, has, set, delete, clear, size, values), with the
 * same semantics, iterators included, but cheaper for large collections, and with no `delete`
 * whose work grows with the table but the rare one that shrinks the hash table (the TTL reaper
 * deletes in 0.3 ms slices between requests: one long call stalls every client).
 *
 * A `Map` with string keys finds an entry by walking a bucket chain and reading each candidate
 * key string: at 100,000 records and more, every insert and lookup costs several cache misses,
 * and the garbage collector visits three slots per entry. Here an open-addressing hash table of
 * (hash, position) pairs in an `Int32Array` (linear probing, deletion by backward shift, at most
 * half full) finds the records: a miss reads one or two adjacent pairs and no string; a hit reads
 * the record's `id` once. The hash is computed from the key's characters (FNV-1a, then murmur3's
 * finaliser to spread it over the low bits).
 *
 * The insertion order lives in chunks of at most `CHUNK_POSITIONS` slots, linked in order; a
 * record's position is its chunk's id × `CHUNK_POSITIONS` + its index in the chunk's array (null
 * where a record was deleted), so a lookup reads the chunk's array from a directory by id. New
 * records go to the last chunk (the open one); when it is full a new chunk is opened. Each
 * closed chunk looks after itself, so that no call renumbers more than `CHUNK_POSITIONS` pairs
 * (when one array held the whole order, the delete that compacted it copied every record and
 * renumbered every pair: 26-76 ms at 250,000 records in 1,000,000 slots):
 * - when its last record is deleted it leaves the list and its id is free for a new chunk;
 * - when its holes outnumber its records threefold it is compacted: the records slide to the
 *   front of a new array (order kept), and only their pairs are renumbered, each found by
 *   probing from its record's hash for the pair holding the old position;
 * - two neighbouring closed chunks whose lengths sum to at most `MERGE_LIMIT_POSITIONS` (half a
 *   chunk) are merged, the later one's records appended to the earlier one; this is checked
 *   whenever one of them shrinks or they become neighbours, and the records renumbered in one
 *   call all land in one chunk (a compacted chunk fits in the one before it when it can).
 * A closed chunk is therefore at least a quarter records (at most four 8-byte order slots per
 * record, one once compacted, as when one array held them), and any two neighbouring closed
 * chunks hold more than 128 records: there are at most records / 64 + 2 chunks, so the chunks
 * themselves cost a few bytes per record at most. Chunk ids are reused, so positions never run
 * out with use: only more than ~134 million records (2^21 chunks, the most whose positions + 1
 * fit an Int32Array) could exhaust them, and `set` then throws a RangeError; no renumbering of
 * the whole table is ever needed, and iterations never walk empty chunks.
 *
 * Iterators are live, as a `Map`'s: they see records added after they were created and skip
 * records deleted before they reach them. An iterator holds a chunk and an index in it. A chunk
 * that is compacted, merged into the one before it, or cleared is replaced, and keeps where its
 * records went (the chunk, the index of the first, the indices they had), so that an iterator
 * still on it moves to the matching place; an emptied chunk keeps its successor at the time.
 *
 * The hash table doubles when it would be more than half full (a full rehash, as a `Map` grows)
 * and shrinks, to at least 1/16 full, once its records fall below 1/64 of its pairs: a rehash
 * from the old table, which it reads once (8 bytes a pair, sequentially, no record or key), and
 * where it re-places under 1/64 of its pairs. That bounds the table to 512 bytes per record (or
 * 16 pairs), and keeps the shrinking `delete`, the one whose work grows with the table, rare
 * (once per 64-fold fall in records) and short: 4-9 ms measured for the 2^21 pairs of a table
 * that held 1,000,000 records.
 */
import { decodeStoredFields, STORED_ID_VALUE_AT, storedInt32 } from './record_format.js';
import { keyString } from './values/key_string.js';

/** A record keyed by its `id`. */
export interface Keyed {
  /** The key the record is stored under (immutable while stored). */
  readonly id: string;
}

/**
 * How a table reads the key of a record it holds: when renumbering the record (its hash), and
 * when a lookup's hash matches (its key). A record need not carry its key as a string: a
 * collection's records read theirs from their stored bytes.
 */
export interface Keying<R> {
  /** `hashOf` the key `rec` is stored under. */
  hashOf(rec: R): number;
  /** True when `rec` is stored under `key`. */
  hasKey(rec: R, key: string): boolean;
}

/** The keying of records that carry their key as `id`. */
export const BY_ID: Keying<Keyed> = {
  hashOf: (rec) => hashOf(rec.id),
  hasKey: (rec, key) => rec.id === key,
};

/** log2 of `CHUNK_POSITIONS`. */
const CHUNK_SHIFT = 10;
/** Order slots per chunk: the most pairs one call renumbers (see module comment). */
export const CHUNK_POSITIONS = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_POSITIONS - 1;
/**
 * Two neighbouring closed chunks whose lengths sum to at most this are merged (see module
 * comment): half a chunk bounds the number of chunks almost as well as a whole one, and
 * renumbers fewer records twice (deleting 1,000,000 records in a random order renumbers 354,000
 * pairs instead of 455,000).
 */
const MERGE_LIMIT_POSITIONS = CHUNK_POSITIONS / 2;
/** Chunk ids stay below this, so that every position + 1 fits in an Int32Array. */
const MAX_CHUNKS = Math.floor(0x7fffffff / CHUNK_POSITIONS);
/** The smallest hash table (pairs). */
const MIN_CAPACITY = 16;
/** The hash table halves when its records fall below 1 / SHRINK_RATIO of its pairs. */
const SHRINK_RATIO = 64;
/** Scratch for `moveRecords`: the hashes of the records it moves. */
const MOVED_HASHES = new Int32Array(CHUNK_POSITIONS);
/** Scratch for `deleteRecords`: the hashes of the records it removes, `CHUNK_POSITIONS` at a time. */
const BATCH_HASHES = new Int32Array(CHUNK_POSITIONS);
/** The `kept` of a chunk replaced by `clear`: none of its records went anywhere. */
const NONE_KEPT: readonly number[] = [];

/** A run of the insertion order (see module comment). */
interface Chunk<R> {
  /** Its slot in the directories while listed: its positions are id × CHUNK_POSITIONS + index. */
  id: number;
  /** Its records in insertion order, null where one was deleted; empty once it left the list. */
  order: Array<R | null>;
  /** The chunk before it in insertion order (null for the first, or once it left the list). */
  prev: Chunk<R> | null;
  /** The chunk after it (null for the open one); an emptied chunk keeps the one it had. */
  next: Chunk<R> | null;
  /** Once replaced (compacted, merged or cleared): the chunk its records went to. */
  movedTo: Chunk<R> | null;
  /** Once replaced: the index in `movedTo` of its first record that went there. */
  movedAt: number;
  /** Once replaced: the indices (ascending) that the records that went there had in it. */
  kept: readonly number[];
}

/** Records by key in insertion order (see module comment). */
export class RecordTable<R> {
  /** Each listed chunk's `order` by chunk id (null for a free id): what lookups read. */
  private orders: Array<Array<R | null> | null> = [];
  /** Each listed chunk by id (null for a free id). */
  private chunks: Array<Chunk<R> | null> = [];
  /** The records (not null) in each listed chunk's `order`, by chunk id (read by every delete). */
  private liveIn = new Int32Array(16);
  /** Ids of the directories' free slots. */
  private freeIds: number[] = [];
  private head: Chunk<R>;
  /** The open chunk, where new records go (the last one). */
  private tail: Chunk<R>;
  /** Pairs (hash, position + 1); position + 1 === 0 marks an empty slot. */
  private slots = new Int32Array(2 * MIN_CAPACITY);
  /** Pairs the table can hold, minus one (a power of two minus one). */
  private mask = MIN_CAPACITY - 1;
  private live = 0;
  private renumberedMax = 0;
  private shrinkRehashedMax = 0;
  /** What `readAhead` read, kept so that its reads are not optimised away. */
  private touched = 0;

  /** An empty table of records whose keys `keying` reads (by default their `id`). */
  constructor(private readonly keying: Keying<R> = BY_ID as unknown as Keying<R>) {
    this.head = this.tail = this.openChunk(null);
  }

  /** Number of records. */
  get size(): number {
    return this.live;
  }

  /**
   * The most pairs one call (`set` or `delete`) renumbered because records moved in the order
   * (chunk compactions and merges): at most `CHUNK_POSITIONS`. For tests and diagnostics.
   */
  get maxRenumberedInOneCall(): number {
    return this.renumberedMax;
  }

  /**
   * The most pairs one `delete` re-placed by shrinking the hash table: under 1/64 of the pairs
   * the table had, which that call also read once (see module comment). For tests and
   * diagnostics.
   */
  get maxRehashedByShrink(): number {
    return this.shrinkRehashedMax;
  }

  /** The chunks of the insertion order (see module comment). For tests and diagnostics. */
  get chunkCount(): number {
    return this.chunks.length - this.freeIds.length;
  }

  /** The record stored under `key`. */
  get(key: string): R | undefined {
    const at = this.find(key, hashOf(key));
    if (at < 0) return undefined;
    const position = this.slots[at + 1]! - 1;
    return this.orders[position >>> CHUNK_SHIFT]![position & CHUNK_MASK] as R;
  }

  /** True when a record is stored under `key`. */
  has(key: string): boolean {
    return this.find(key, hashOf(key)) >= 0;
  }

  /**
   * Stores `rec` under `key`, which must be its key: last in insertion order when new, in the
   * place of the record it replaces otherwise.
   */
  set(key: string, rec: R): this {
    if (!this.keying.hasKey(rec, key)) throw new Error(`record table: key ${JSON.stringify(key)} is not the record's key`);
    const hash = hashOf(key);
    const at = this.find(key, hash);
    if (at >= 0) {
      const position = this.slots[at + 1]! - 1;
      this.orders[position >>> CHUNK_SHIFT]![position & CHUNK_MASK] = rec;
      return this;
    }
    return this.append(hash, rec);
  }

  /**
   * Stores `rec` under `key`, last in insertion order, without looking `key` up: the caller knows
   * no record is stored under it (it has just asked `get` or `has`). `set` otherwise.
   */
  add(key: string, rec: R): this {
    return this.append(hashOf(key), rec);
  }

  /** Stores `rec`, whose key hashes to `hash` and is not held, last in insertion order. */
  private append(hash: number, rec: R): this {
    if (2 * (this.live + 1) > this.mask + 1) this.resize(2 * (this.mask + 1));
    let tail = this.tail;
    if (tail.order.length === CHUNK_POSITIONS) tail = this.closeTail();
    this.place(hash, (tail.id << CHUNK_SHIFT) + tail.order.length);
    tail.order.push(rec);
    this.liveIn[tail.id]++;
    this.live++;
    return this;
  }

  /** Removes the record stored under `key`; false when there is none. */
  delete(key: string): boolean {
    const at = this.find(key, hashOf(key));
    if (at < 0) return false;
    this.deleteAt(at);
    return true;
  }

  /** True when the table holds `rec` itself (found by its key's hash, without reading its key). */
  hasRecord(rec: R): boolean {
    return this.findRecord(rec) >= 0;
  }

  /** Removes `rec` itself (as `hasRecord` finds it); false when it is not held. */
  deleteRecord(rec: R): boolean {
    const at = this.findRecord(rec);
    if (at < 0) return false;
    this.deleteAt(at);
    return true;
  }

  /**
   * Removes those of `recs[0, count)` that the table holds (each as `deleteRecord` would, the
   * same record listed twice removed once), moves them to the front of `recs` in their order, and
   * returns how many. Quicker than one `deleteRecord` each in a large table: the pair each record
   * hashes to is read for all of them before any is removed, so that their cache misses overlap
   * rather than follow one another (one `deleteRecord` in a table of 1,000,000 records mostly
   * waits for memory).
   */
  deleteRecords(recs: R[], count: number): number {
    let removed = 0;
    for (let start = 0; start < count; start += CHUNK_POSITIONS) {
      const end = Math.min(count, start + CHUNK_POSITIONS);
      const hashes = BATCH_HASHES;
      for (let k = start; k < end; k++) hashes[k - start] = this.keying.hashOf(recs[k]!);
      this.readAhead(hashes, end - start);
      for (let k = start; k < end; k++) {
        const rec = recs[k]!;
        const at = this.findRecordByHash(rec, hashes[k - start]!);
        if (at < 0) continue;
        this.deleteAt(at);
        recs[removed++] = rec;
      }
    }
    return removed;
  }

  /**
   * Reads the pair that each of `hashes[0, count)` hashes to, so that the cache misses of the
   * lookups that follow (one per hash, in a large table) overlap: this loop's reads do not depend
   * on one another, a lookup's next step depends on its own read.
   */
  private readAhead(hashes: Int32Array, count: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let touched = 0;
    for (let k = 0; k < count; k++) touched |= slots[2 * (hashes[k]! & mask) + 1]!;
    this.touched = touched;
  }

  /** The index in `slots` of the pair of `rec` itself; -1 when it is not held. */
  private findRecord(rec: R): number {
    return this.findRecordByHash(rec, this.keying.hashOf(rec));
  }

  /** `findRecord` of `rec`, whose key hashes to `hash`. */
  private findRecordByHash(rec: R, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const orders = this.orders;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const stored = slots[2 * i + 1]!;
      if (stored === 0) return -1;
      if (slots[2 * i] === hash) {
        const position = stored - 1;
        if (orders[position >>> CHUNK_SHIFT]![position & CHUNK_MASK] === rec) return 2 * i;
      }
    }
  }

  /** Removes the record of the pair at `at` of `slots`. */
  private deleteAt(at: number): void {
    const slots = this.slots;
    const position = slots[at + 1]! - 1;
    const id = position >>> CHUNK_SHIFT;
    const order = this.orders[id]!;
    order[position & CHUNK_MASK] = null;
    const left = --this.liveIn[id]!;
    this.live--;
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
    // A closed chunk left empty or with three holes per record settles; the open one waits until
    // it closes.
    if ((left === 0 || order.length - left > 3 * left) && id !== this.tail.id) {
      this.settle(this.chunks[id]!);
    }
    if (SHRINK_RATIO * this.live < mask + 1 && mask + 1 > MIN_CAPACITY) this.shrink();
  }

  /** Removes every record. */
  clear(): void {
    const old = this.head;
    this.orders = [];
    this.chunks = [];
    this.liveIn = new Int32Array(16);
    this.freeIds = [];
    this.head = this.tail = this.openChunk(null);
    // Every iterator reaches a listed chunk (see RecordIterator), and moves from there to the
    // start of the new one.
    for (let chunk: Chunk<R> | null = old; chunk !== null; ) {
      const next: Chunk<R> | null = chunk.next;
      retire(chunk, this.tail, 0, NONE_KEPT);
      chunk = next;
    }
    this.slots = new Int32Array(2 * MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
    this.live = 0;
  }

  /** The records in insertion order, read lazily (live, as a `Map`'s iterator). */
  values(): IterableIterator<R> {
    return new RecordIterator(this.head);
  }

  /**
   * The records after `rec` in insertion order, read lazily as `values()` (a tailable cursor
   * resumes from the record it read last); undefined when the table does not hold `rec`.
   */
  valuesAfter(rec: R): IterableIterator<R> | undefined {
    const at = this.findRecord(rec);
    if (at < 0) return undefined;
    const position = this.slots[at + 1]! - 1;
    return new RecordIterator(this.chunks[position >>> CHUNK_SHIFT]!, (position & CHUNK_MASK) + 1);
  }

  /** The index in `slots` of the pair of `key` (whose hash is `hash`); -1 when absent. */
  private find(key: string, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const orders = this.orders;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const stored = slots[2 * i + 1]!;
      if (stored === 0) return -1;
      if (slots[2 * i] === hash) {
        const position = stored - 1;
        if (this.keying.hasKey(orders[position >>> CHUNK_SHIFT]![position & CHUNK_MASK] as R, key)) return 2 * i;
      }
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

  /** Changes the position in the pair (hash, from) to `to`. */
  private renumber(hash: number, from: number, to: number): void {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const stored = slots[2 * i + 1]!;
      if (stored === from + 1) {
        slots[2 * i + 1] = to + 1;
        return;
      }
      if (stored === 0) throw new Error(`record table: no pair at position ${from}`);
    }
  }

  /** Rebuilds the hash table with `capacity` pairs from the old one (positions unchanged). */
  private resize(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      const position = old[i + 1]! - 1;
      if (position >= 0) this.place(old[i]!, position);
    }
  }

  /**
   * Halves the hash table until its records fill at least 1/16 of it. Called once they fill
   * less than 1/64: it reads the old table once (sequentially, no record or key) and re-places
   * those few pairs (see module comment).
   */
  private shrink(): void {
    let capacity = this.mask + 1;
    while (capacity > MIN_CAPACITY && 16 * this.live < capacity) capacity >>>= 1;
    this.resize(capacity);
    if (this.live > this.shrinkRehashedMax) this.shrinkRehashedMax = this.live;
  }

  /** A new empty chunk after `prev` (linked to it), with a free id. */
  private openChunk(prev: Chunk<R> | null): Chunk<R> {
    const id = this.freeIds.length > 0 ? this.freeIds.pop()! : this.chunks.length;
    if (id >= MAX_CHUNKS) throw new RangeError(`record table: more than ${MAX_CHUNKS} chunks of records`);
    const chunk = newChunk<R>(id, prev, null);
    this.chunks[id] = chunk;
    this.orders[id] = chunk.order;
    if (id === this.liveIn.length) {
      const liveIn = new Int32Array(2 * id);
      liveIn.set(this.liveIn);
      this.liveIn = liveIn;
    }
    this.liveIn[id] = 0;
    if (prev !== null) prev.next = chunk;
    return chunk;
  }

  /** Closes the full open chunk and opens the next one, which it returns. */
  private closeTail(): Chunk<R> {
    const closed = this.tail;
    // Grown by pushes, its array has room for about 17% more slots than it will ever use: an
    // exact copy frees them (iterators read `order` afresh at every step).
    closed.order = closed.order.slice();
    this.orders[closed.id] = closed.order;
    const tail = this.openChunk(closed);
    this.tail = tail;
    // Deletes in the open chunk did not settle it.
    const left = this.liveIn[closed.id]!;
    if (left === 0 || closed.order.length - left > 3 * left) this.settle(closed);
    return tail;
  }

  /**
   * Restores the bounds of the closed chunk `chunk` after it lost records (or was closed), when
   * it is empty or its holes outnumber its records threefold (see module comment): drops it when
   * empty, else compacts it, into the chunk before it when they fit together; then the chunk
   * that ends up before the change takes in the chunks after it while they fit in half a chunk.
   * The pairs renumbered all belong to records that land in one chunk: at most
   * `CHUNK_POSITIONS`.
   */
  private settle(chunk: Chunk<R>): void {
    const prev = chunk.prev;
    const left = this.liveIn[chunk.id]!;
    let renumbered = 0;
    if (left === 0) {
      this.unlist(chunk);
      // An emptied chunk keeps its successor (see RecordIterator).
      chunk.order = [];
      chunk.prev = null;
      // Its neighbours are now neighbours. (An emptied chunk held at most 4 slots, else it
      // would have compacted first, so they already exceed half a chunk together: this keeps
      // the bound without relying on that.)
      if (prev !== null) renumbered = this.absorbFollowing(prev);
    } else if (prev !== null && prev.order.length + left <= CHUNK_POSITIONS) {
      renumbered = this.merge(chunk) + this.absorbFollowing(prev);
    } else {
      const compacted = newChunk<R>(chunk.id, prev, chunk.next);
      if (prev === null) this.head = compacted;
      else prev.next = compacted;
      chunk.next!.prev = compacted;
      this.chunks[chunk.id] = compacted;
      this.orders[chunk.id] = compacted.order;
      renumbered = this.moveRecords(chunk, compacted) + this.absorbFollowing(compacted);
    }
    if (renumbered > this.renumberedMax) this.renumberedMax = renumbered;
  }

  /**
   * Merges into the closed chunk `chunk` the closed chunks after it while their lengths sum to at
   * most `MERGE_LIMIT_POSITIONS`; the pairs renumbered.
   */
  private absorbFollowing(chunk: Chunk<R>): number {
    let renumbered = 0;
    for (;;) {
      const next = chunk.next!;
      if (next === this.tail || chunk.order.length + next.order.length > MERGE_LIMIT_POSITIONS) return renumbered;
      renumbered += this.merge(next);
    }
  }

  /** Moves the records of the closed chunk `chunk` to the end of the one before it; pairs renumbered. */
  private merge(chunk: Chunk<R>): number {
    const prev = chunk.prev!;
    this.unlist(chunk);
    return this.moveRecords(chunk, prev);
  }

  /** Takes `chunk` out of the list and frees its id. */
  private unlist(chunk: Chunk<R>): void {
    const prev = chunk.prev;
    const next = chunk.next!;
    if (prev === null) this.head = next;
    else prev.next = next;
    next.prev = prev;
    this.chunks[chunk.id] = null;
    this.orders[chunk.id] = null;
    this.freeIds.push(chunk.id);
  }

  /**
   * Appends the records of `from` to `to`, renumbering their pairs, and retires `from` (which
   * the caller took out of the list or replaced); the pairs renumbered.
   */
  private moveRecords(from: Chunk<R>, to: Chunk<R>): number {
    const order = from.order;
    const kept: number[] = [];
    const target = to.order;
    const movedAt = target.length;
    const fromBase = from.id << CHUNK_SHIFT;
    const toBase = (to.id << CHUNK_SHIFT) + movedAt;
    // Hashing every record first lets the processor fetch several records and keys at once.
    const hashes = MOVED_HASHES;
    const keying = this.keying;
    for (let i = 0; i < order.length; i++) {
      const rec = order[i];
      if (rec == null) continue;
      hashes[kept.length] = keying.hashOf(rec);
      kept.push(i);
    }
    const k = kept.length;
    this.readAhead(hashes, k);
    for (let j = 0; j < k; j++) {
      const i = kept[j]!;
      this.renumber(hashes[j]!, fromBase + i, toBase + j);
      target.push(order[i]!);
    }
    this.liveIn[from.id] -= k;
    this.liveIn[to.id] += k;
    retire(from, to, movedAt, kept);
    return k;
  }
}

/** A new chunk with no records. */
function newChunk<R>(id: number, prev: Chunk<R> | null, next: Chunk<R> | null): Chunk<R> {
  return { id, order: [], prev, next, movedTo: null, movedAt: 0, kept: NONE_KEPT };
}

/** Marks `chunk` replaced: its records at the indices `kept` went to `to` from `movedAt` on. */
function retire<R>(chunk: Chunk<R>, to: Chunk<R>, movedAt: number, kept: readonly number[]): void {
  chunk.movedTo = to;
  chunk.movedAt = movedAt;
  chunk.kept = kept;
  chunk.order = [];
  chunk.prev = null;
  chunk.next = null;
}

/**
 * An iterator over the records, following compactions, merges and clears (see module comment).
 * Every chunk it can hold is listed, or replaced (and leads to a chunk that went on from its
 * place), or was emptied (and leads to the chunk after it at the time): it never misses a
 * record that was stored, and not yet deleted, after its place.
 */
class RecordIterator<R> implements IterableIterator<R> {
  private chunk: Chunk<R> | null;
  private index: number;

  constructor(chunk: Chunk<R>, index = 0) {
    this.chunk = chunk;
    this.index = index;
  }

  next(): IteratorResult<R, undefined> {
    let chunk = this.chunk;
    if (chunk === null) return { value: undefined, done: true };
    let index = this.index;
    for (;;) {
      while (chunk.movedTo !== null) {
        index = chunk.movedAt + countBelow(chunk.kept, index);
        chunk = chunk.movedTo;
      }
      const order = chunk.order;
      while (index < order.length) {
        const rec = order[index++];
        if (rec != null) {
          this.chunk = chunk;
          this.index = index;
          return { value: rec, done: false };
        }
      }
      const next: Chunk<R> | null = chunk.next;
      // The end of the open chunk: done for good, as a Map's iterator (records added later are
      // not seen).
      if (next === null) {
        this.chunk = null;
        return { value: undefined, done: true };
      }
      chunk = next;
      index = 0;
    }
  }

  [Symbol.iterator](): IterableIterator<R> {
    return this;
  }
}

/** The number of values in the ascending `sorted` below `n`. */
function countBelow(sorted: readonly number[], n: number): number {
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
  return finishHash(hashChars(HASH_SEED, key, 0, key.length));
}

/** The FNV-1a state before any character (`hashOf` in steps: `hashChars`, then `finishHash`). */
export const HASH_SEED = 0x811c9dc5;

/** The FNV-1a state `h` after the characters `s[start, end)`. */
export function hashChars(h: number, s: string, start: number, end: number): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** The FNV-1a state `h` after the character code `c`. */
export function hashChar(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** The hash of the key whose FNV-1a state is `h` (murmur3's 32-bit finaliser). */
export function finishHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

// ---------------------------------------------------------------------------------------------
// The key of a stored document's `_id`, read from its stored form (`encodeStored`: one byte per
// character, the `_id` element first, its type at 0 and its value from STORED_ID_VALUE_AT). An
// ObjectId, an int32 or an ASCII string is read in place (the key is 'o' and the 12 bytes, 'n'
// and the number, or 's' and the string); any other `_id` is decoded and keyed.

const ID_FIELDS: readonly string[] = ['_id'];
const AT = STORED_ID_VALUE_AT;

/**
 * `hashOf(numberKey(n))` for an int32 `n`, with no string built: FNV-1a over 'n', the sign and
 * the decimal digits (a scan hands out records in any order and checks each one's liveness by
 * its `_id`: building the key string was most of a full sort's time).
 */
export function int32KeyHash(n: number): number {
  let h = hashChar(HASH_SEED, 110);
  if (n < 0) h = hashChar(h, 45);
  const v = Math.abs(n);
  let div = 1;
  while (div * 10 <= v) div *= 10;
  for (; div >= 1; div /= 10) h = hashChar(h, 48 + (Math.floor(v / div) % 10));
  return finishHash(h);
}

/** `key === numberKey(n)` for an int32 `n`, with no string built. */
export function int32KeyEquals(key: string, n: number): boolean {
  if (key.charCodeAt(0) !== 110) return false;
  let i = 1;
  if (n < 0) {
    if (key.charCodeAt(1) !== 45) return false;
    i = 2;
  }
  const v = Math.abs(n);
  let div = 1;
  while (div * 10 <= v) div *= 10;
  for (; div >= 1; div /= 10, i++) if (key.charCodeAt(i) !== 48 + (Math.floor(v / div) % 10)) return false;
  return i === key.length;
}

/** End of the stored string `_id` of `bson` when it is ASCII, else -1 (its characters from AT + 4). */
function asciiStringIdEnd(bson: string): number {
  const end = AT + 4 + storedInt32(bson, AT) - 1;
  for (let i = AT + 4; i < end; i++) if (bson.charCodeAt(i) > 127) return -1;
  return end;
}

/** `keyString` of the `_id` of the stored document `bson`. */
export function storedIdKey(bson: string): string {
  return keyString(decodeStoredFields(bson, ID_FIELDS)._id);
}

/** `hashOf(storedIdKey(bson))`, without decoding an ObjectId, int32 or ASCII string `_id`. */
export function storedIdKeyHash(bson: string): number {
  switch (bson.charCodeAt(0)) {
    case 0x07:
      return finishHash(hashChars(hashChar(HASH_SEED, 111), bson, AT, AT + 12));
    case 0x10:
      return int32KeyHash(storedInt32(bson, AT));
    case 0x02: {
      const end = asciiStringIdEnd(bson);
      if (end >= 0) return finishHash(hashChars(hashChar(HASH_SEED, 115), bson, AT + 4, end));
    }
  }
  return hashOf(storedIdKey(bson));
}

/** `storedIdKey(bson) === key`, without decoding an ObjectId, int32 or ASCII string `_id`. */
export function storedIdHasKey(bson: string, key: string): boolean {
  switch (bson.charCodeAt(0)) {
    case 0x07: {
      if (key.length !== 13 || key.charCodeAt(0) !== 111) return false;
      for (let i = 0; i < 12; i++) if (key.charCodeAt(1 + i) !== bson.charCodeAt(AT + i)) return false;
      return true;
    }
    case 0x10:
      return int32KeyEquals(key, storedInt32(bson, AT));
    case 0x02: {
      const end = asciiStringIdEnd(bson);
      if (end < 0) break;
      const start = AT + 4;
      if (key.length !== end - start + 1 || key.charCodeAt(0) !== 115) return false;
      for (let i = start; i < end; i++) if (key.charCodeAt(i - start + 1) !== bson.charCodeAt(i)) return false;
      return true;
    }
  }
  return storedIdKey(bson) === key;
}
