/**
 * The expiry schedule: a binary min-heap of (expiry instant in ms, item), kept in a growable
 * `Float64Array` of keys beside a plain array of items so that a million entries cost two flat
 * arrays rather than a million small objects. Popping everything due at `now` costs
 * O(k log n) for k due entries: a reaper pass costs in proportion to what expired, never to the
 * size of the collection.
 *
 * Entries are never updated in place. A record whose expiry changes gets a new entry; the old
 * one becomes stale and is recognised (and skipped) by its owner when it reaches the top. The
 * owner compacts the heap (`rebuild`) when stale entries outnumber live ones.
 */

const INITIAL_CAPACITY = 64;

/** A min-heap of items keyed by expiry instant (ms since the epoch). */
export class ExpirySchedule<T> {
  private keys = new Float64Array(INITIAL_CAPACITY);
  private items: (T | undefined)[] = [];
  private count = 0;

  /** Number of entries (stale ones included). */
  get size(): number {
    return this.count;
  }

  /** The earliest key, or +Infinity when empty. */
  peekKey(): number {
    return this.count === 0 ? Infinity : this.keys[0]!;
  }

  /** Adds `item` due at `key` (a finite number of ms). */
  push(key: number, item: T): void {
    if (this.count === this.keys.length) this.grow(this.count * 2);
    let i = this.count++;
    const keys = this.keys;
    const items = this.items;
    // Sift up: keys usually arrive in increasing order, so this loop rarely runs.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent]!;
      if (pk <= key) break;
      keys[i] = pk;
      items[i] = items[parent];
      i = parent;
    }
    keys[i] = key;
    items[i] = item;
  }

  /** Removes and returns the earliest item (undefined when empty). */
  pop(): T | undefined {
    if (this.count === 0) return undefined;
    const items = this.items;
    const top = items[0];
    const last = --this.count;
    if (last > 0) {
      const key = this.keys[last]!;
      const item = items[last];
      items[last] = undefined;
      this.siftDown(0, key, item);
    } else {
      items[0] = undefined;
    }
    return top;
  }

  /** Drops every entry. */
  clear(): void {
    this.keys = new Float64Array(INITIAL_CAPACITY);
    this.items = [];
    this.count = 0;
  }

  /** Replaces the contents by `entries` in O(n) (Floyd's heap construction). */
  rebuild(entries: Iterable<readonly [number, T]>): void {
    const keys: number[] = [];
    const items: T[] = [];
    for (const [key, item] of entries) {
      keys.push(key);
      items.push(item);
    }
    this.keys = new Float64Array(Math.max(INITIAL_CAPACITY, keys.length));
    this.keys.set(keys);
    this.items = items;
    this.count = keys.length;
    for (let i = (this.count >> 1) - 1; i >= 0; i--) this.siftDown(i, this.keys[i]!, this.items[i]);
  }

  /** Every entry in heap order (not sorted), for compaction and tests. */
  *entries(): IterableIterator<[number, T]> {
    for (let i = 0; i < this.count; i++) yield [this.keys[i]!, this.items[i] as T];
  }

  private siftDown(start: number, key: number, item: T | undefined): void {
    const keys = this.keys;
    const items = this.items;
    const n = this.count;
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && keys[right]! < keys[child]!) child = right;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      items[i] = items[child];
      i = child;
    }
    keys[i] = key;
    items[i] = item;
  }

  private grow(capacity: number): void {
    const next = new Float64Array(capacity);
    next.set(this.keys);
    this.keys = next;
  }
}
