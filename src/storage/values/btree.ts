/**
 * An in-memory B+tree of (key, value) entries ordered by a caller-given comparator, with
 * linked leaves for scans in both directions and per-child entry counts in the inner nodes so
 * that the number of entries before any position is found in O(log n) (the planner's key-count
 * estimates). Duplicate entries are not allowed: callers make every entry unique (an index
 * orders by key, then by record sequence number).
 *
 * Searches take a monotone predicate over entries (false for a prefix of the order, true after)
 * rather than a probe key, so one descent serves lower bounds, upper bounds and seeks to
 * "just after a key prefix" alike. Nothing here allocates in proportion to the tree's size.
 */

/** Maximum entries of a leaf and children of an inner node. */
const MAX_FANOUT = 64;
/** Below this a node is merged with a sibling when they fit together. */
const MIN_FILL = 16;

/** A leaf: entries in order, and its neighbours. */
export class BTreeLeaf<K, V> {
  keys: K[] = [];
  vals: V[] = [];
  next: BTreeLeaf<K, V> | null = null;
  prev: BTreeLeaf<K, V> | null = null;
}

class Inner<K, V> {
  /** Children, all leaves or all inner nodes. */
  children: Array<Inner<K, V> | BTreeLeaf<K, V>> = [];
  /** Entries below each child. */
  counts: number[] = [];
  /** sepKeys[i] / sepVals[i] (i ≥ 1): an entry ≤ every entry of children[i] and > every entry of children[i-1]. */
  sepKeys: K[] = [];
  sepVals: V[] = [];
}

type Node<K, V> = Inner<K, V> | BTreeLeaf<K, V>;

/** Orders two entries: negative, zero (same entry) or positive. */
export type EntryComparator<K, V> = (ak: K, av: V, bk: K, bv: V) => number;

/** True from some position of the order onwards (a monotone predicate). */
export type EntryPredicate<K, V> = (key: K, val: V) => boolean;

/** A position in the tree: a leaf and an offset (offset === leaf.keys.length means "after"). */
export interface BTreePosition<K, V> {
  leaf: BTreeLeaf<K, V>;
  index: number;
}

/** An ordered set of (key, value) entries. */
export class BTree<K, V> {
  private root: Node<K, V> = new BTreeLeaf<K, V>();
  private readonly compare: EntryComparator<K, V>;
  private count = 0;
  /** Bumped on every change, so that open scans know to re-seek. */
  version = 0;
  /** The steps of `delete`'s descent, reused from one call to the next. */
  private readonly deletePath: Array<{ node: Inner<K, V>; child: number }> = [];

  /** An empty tree ordered by `compare`. */
  constructor(compare: EntryComparator<K, V>) {
    this.compare = compare;
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** Removes every entry. */
  clear(): void {
    this.root = new BTreeLeaf<K, V>();
    this.count = 0;
    this.version++;
  }

  /** Adds an entry; false (and nothing changes) when an equal entry is already present. */
  insert(key: K, val: V): boolean {
    if (this.append(key, val)) return true;
    const path: Array<{ node: Inner<K, V>; child: number }> = [];
    let node = this.root;
    while (node instanceof Inner) {
      const child = this.childOf(node, key, val);
      path.push({ node, child });
      node = node.children[child]!;
    }
    const leaf = node;
    const at = this.lowerIndexOf(leaf, key, val);
    if (at < leaf.keys.length && this.compare(leaf.keys[at]!, leaf.vals[at]!, key, val) === 0) return false;
    insertAt(leaf.keys, at, key);
    insertAt(leaf.vals, at, val);
    for (const step of path) step.node.counts[step.child]!++;
    this.count++;
    this.version++;
    if (leaf.keys.length > MAX_FANOUT) this.splitLeaf(leaf, path);
    return true;
  }

  /**
   * The fast path of `insert` for an entry after the last one (increasing keys: ObjectIds,
   * counters, timestamps): down the right edge, no search. False when the entry is not last.
   */
  private append(key: K, val: V): boolean {
    const leaf = this.lastLeaf();
    const last = leaf.keys.length - 1;
    if (last < 0 || this.compare(leaf.keys[last]!, leaf.vals[last]!, key, val) >= 0) return false;
    leaf.keys.push(key);
    leaf.vals.push(val);
    for (let n = this.root; n instanceof Inner; n = n.children[n.children.length - 1]!) n.counts[n.counts.length - 1]!++;
    this.count++;
    this.version++;
    if (leaf.keys.length > MAX_FANOUT) {
      // Appending: keep the left leaf full, so increasing keys fill leaves completely.
      const path: Array<{ node: Inner<K, V>; child: number }> = [];
      for (let n = this.root; n instanceof Inner; n = n.children[n.children.length - 1]!) path.push({ node: n, child: n.children.length - 1 });
      this.splitLeaf(leaf, path, MAX_FANOUT);
    }
    return true;
  }

  /**
   * Removes the entry equal to (key, val); false when there is none. Allocates nothing: the
   * path down is kept in reused steps, and the leaf's arrays shift in place (`splice` returns
   * an array of what it removed). A TTL pass deletes a million entries in a row, and garbage
   * per deletion became young-generation collections in the middle of it.
   */
  delete(key: K, val: V): boolean {
    const path = this.deletePath;
    let depth = 0;
    let node = this.root;
    while (node instanceof Inner) {
      const child = this.childOf(node, key, val);
      const step = path[depth] ?? (path[depth] = { node, child });
      step.node = node;
      step.child = child;
      depth++;
      node = node.children[child]!;
    }
    const leaf = node;
    const at = this.lowerIndexOf(leaf, key, val);
    if (at >= leaf.keys.length || this.compare(leaf.keys[at]!, leaf.vals[at]!, key, val) !== 0) return false;
    removeAt(leaf.keys, at);
    removeAt(leaf.vals, at);
    for (let i = 0; i < depth; i++) path[i]!.node.counts[path[i]!.child]!--;
    this.count--;
    this.version++;
    this.rebalance(leaf, path, depth);
    return true;
  }

  /** The child of `node` whose range holds the entry (key, val) (`childFor` without a closure). */
  private childOf(node: Inner<K, V>, key: K, val: V): number {
    let lo = 1;
    let hi = node.children.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(node.sepKeys[mid]!, node.sepVals[mid]!, key, val) > 0) hi = mid;
      else lo = mid + 1;
    }
    return lo - 1;
  }

  /** The first offset in `leaf` of an entry ≥ (key, val) (`lowerIndex` without a closure). */
  private lowerIndexOf(leaf: BTreeLeaf<K, V>, key: K, val: V): number {
    let lo = 0;
    let hi = leaf.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(leaf.keys[mid]!, leaf.vals[mid]!, key, val) >= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The first position whose entry satisfies `pred` (the end position when none does). */
  seek(pred: EntryPredicate<K, V>): BTreePosition<K, V> {
    let node = this.root;
    while (node instanceof Inner) node = node.children[this.childFor(node, pred)]!;
    const index = lowerIndex(node, pred);
    if (index === node.keys.length && node.next) return { leaf: node.next, index: 0 };
    return { leaf: node, index };
  }

  /** The number of entries that do not satisfy `pred` (the rank of `seek(pred)`). */
  rank(pred: EntryPredicate<K, V>): number {
    let node = this.root;
    let before = 0;
    while (node instanceof Inner) {
      const child = this.childFor(node, pred);
      for (let i = 0; i < child; i++) before += node.counts[i]!;
      node = node.children[child]!;
    }
    return before + lowerIndex(node, pred);
  }

  /** The position of the first entry (an end position when the tree is empty). */
  first(): BTreePosition<K, V> {
    let node = this.root;
    while (node instanceof Inner) node = node.children[0]!;
    return { leaf: node, index: 0 };
  }

  /** The rightmost leaf, holding the last entry (empty only when the tree is). */
  lastLeaf(): BTreeLeaf<K, V> {
    let node = this.root;
    while (node instanceof Inner) node = node.children[node.children.length - 1]!;
    return node;
  }

  /** The position of the last entry (index -1 when the tree is empty). */
  last(): BTreePosition<K, V> {
    const leaf = this.lastLeaf();
    return { leaf, index: leaf.keys.length - 1 };
  }

  /** Builds the tree from entries already in order (replacing any content). */
  load(keys: K[], vals: V[]): void {
    this.clear();
    if (keys.length === 0) return;
    const fill = Math.max(MIN_FILL * 2, Math.floor((MAX_FANOUT * 3) / 4));
    let level: Node<K, V>[] = [];
    let counts: number[] = [];
    let firstKeys: K[] = [];
    let firstVals: V[] = [];
    let prev: BTreeLeaf<K, V> | null = null;
    for (let i = 0; i < keys.length; i += fill) {
      const leaf = new BTreeLeaf<K, V>();
      leaf.keys = keys.slice(i, i + fill);
      leaf.vals = vals.slice(i, i + fill);
      leaf.prev = prev;
      if (prev) prev.next = leaf;
      prev = leaf;
      level.push(leaf);
      counts.push(leaf.keys.length);
      firstKeys.push(leaf.keys[0]!);
      firstVals.push(leaf.vals[0]!);
    }
    while (level.length > 1) {
      const up: Node<K, V>[] = [];
      const upCounts: number[] = [];
      const upKeys: K[] = [];
      const upVals: V[] = [];
      for (let i = 0; i < level.length; i += fill) {
        const inner = new Inner<K, V>();
        inner.children = level.slice(i, i + fill);
        inner.counts = counts.slice(i, i + fill);
        inner.sepKeys = firstKeys.slice(i, i + fill);
        inner.sepVals = firstVals.slice(i, i + fill);
        up.push(inner);
        upCounts.push(inner.counts.reduce((a, b) => a + b, 0));
        upKeys.push(firstKeys[i]!);
        upVals.push(firstVals[i]!);
      }
      level = up;
      counts = upCounts;
      firstKeys = upKeys;
      firstVals = upVals;
    }
    this.root = level[0]!;
    this.count = keys.length;
    this.version++;
  }

  // ---- internals ----------------------------------------------------------------------------

  /** The child of `node` holding the first entry that satisfies `pred` (or where it would be). */
  private childFor(node: Inner<K, V>, pred: EntryPredicate<K, V>): number {
    // First separator i ≥ 1 satisfying pred; the answer lies in child i - 1.
    let lo = 1;
    let hi = node.children.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(node.sepKeys[mid]!, node.sepVals[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo - 1;
  }

  private splitLeaf(leaf: BTreeLeaf<K, V>, path: Array<{ node: Inner<K, V>; child: number }>, at?: number): void {
    const half = at ?? leaf.keys.length >>> 1;
    const right = new BTreeLeaf<K, V>();
    right.keys = leaf.keys.splice(half);
    right.vals = leaf.vals.splice(half);
    right.next = leaf.next;
    if (right.next) right.next.prev = right;
    right.prev = leaf;
    leaf.next = right;
    this.insertChild(path, path.length - 1, leaf, right, leaf.keys.length, right.keys.length, right.keys[0]!, right.vals[0]!);
  }

  /** After `left` split into (left, right), registers `right` in the parent at path[level]. */
  private insertChild(
    path: Array<{ node: Inner<K, V>; child: number }>,
    level: number,
    left: Node<K, V>,
    right: Node<K, V>,
    leftCount: number,
    rightCount: number,
    sepKey: K,
    sepVal: V,
  ): void {
    if (level < 0) {
      const root = new Inner<K, V>();
      root.children = [left, right];
      root.counts = [leftCount, rightCount];
      root.sepKeys = [sepKey, sepKey];
      root.sepVals = [sepVal, sepVal];
      this.root = root;
      return;
    }
    const { node, child } = path[level]!;
    node.children.splice(child + 1, 0, right);
    node.counts.splice(child, 1, leftCount, rightCount);
    node.sepKeys.splice(child + 1, 0, sepKey);
    node.sepVals.splice(child + 1, 0, sepVal);
    if (node.children.length <= MAX_FANOUT) return;
    const half = node.children.length >>> 1;
    const sibling = new Inner<K, V>();
    sibling.children = node.children.splice(half);
    sibling.counts = node.counts.splice(half);
    sibling.sepKeys = node.sepKeys.splice(half);
    sibling.sepVals = node.sepVals.splice(half);
    const nodeCount = node.counts.reduce((a, b) => a + b, 0);
    const siblingCount = sibling.counts.reduce((a, b) => a + b, 0);
    this.insertChild(path, level - 1, node, sibling, nodeCount, siblingCount, sibling.sepKeys[0]!, sibling.sepVals[0]!);
  }

  /** Merges an under-filled node with a sibling when both fit in one; collapses the root. */
  private rebalance(start: Node<K, V>, path: Array<{ node: Inner<K, V>; child: number }>, depth: number): void {
    let node: Node<K, V> = start;
    for (let level = depth - 1; level >= 0; level--) {
      const { node: parent, child } = path[level]!;
      const size = node instanceof BTreeLeaf ? node.keys.length : node.children.length;
      if (size >= MIN_FILL) return;
      if (size === 0) {
        this.removeChild(parent, child);
      } else {
        const siblingIndex = child > 0 ? child - 1 : child + 1;
        if (siblingIndex >= parent.children.length) return;
        const leftIndex = Math.min(child, siblingIndex);
        const left = parent.children[leftIndex]!;
        const right = parent.children[leftIndex + 1]!;
        const leftSize = left instanceof BTreeLeaf ? left.keys.length : left.children.length;
        const rightSize = right instanceof BTreeLeaf ? right.keys.length : right.children.length;
        if (leftSize + rightSize > MAX_FANOUT) return;
        if (left instanceof BTreeLeaf && right instanceof BTreeLeaf) {
          left.keys.push(...right.keys);
          left.vals.push(...right.vals);
          left.next = right.next;
          if (left.next) left.next.prev = left;
        } else {
          const l = left as Inner<K, V>;
          const r = right as Inner<K, V>;
          // The right node's first separator becomes the one between the two halves.
          r.sepKeys[0] = parent.sepKeys[leftIndex + 1]!;
          r.sepVals[0] = parent.sepVals[leftIndex + 1]!;
          l.children.push(...r.children);
          l.counts.push(...r.counts);
          l.sepKeys.push(...r.sepKeys);
          l.sepVals.push(...r.sepVals);
        }
        parent.counts[leftIndex] = parent.counts[leftIndex]! + parent.counts[leftIndex + 1]!;
        parent.children.splice(leftIndex + 1, 1);
        parent.counts.splice(leftIndex + 1, 1);
        parent.sepKeys.splice(leftIndex + 1, 1);
        parent.sepVals.splice(leftIndex + 1, 1);
      }
      node = parent;
    }
    // Collapse a root left with a single child.
    while (this.root instanceof Inner && this.root.children.length === 1) this.root = this.root.children[0]!;
    if (this.root instanceof Inner && this.root.children.length === 0) this.root = new BTreeLeaf<K, V>();
  }

  private removeChild(parent: Inner<K, V>, child: number): void {
    const gone = parent.children[child]!;
    if (gone instanceof BTreeLeaf) {
      if (gone.prev) gone.prev.next = gone.next;
      if (gone.next) gone.next.prev = gone.prev;
    }
    parent.children.splice(child, 1);
    parent.counts.splice(child, 1);
    parent.sepKeys.splice(child, 1);
    parent.sepVals.splice(child, 1);
  }
}

/** First offset in `leaf` whose entry satisfies `pred` (binary search). */
function lowerIndex<K, V>(leaf: BTreeLeaf<K, V>, pred: EntryPredicate<K, V>): number {
  let lo = 0;
  let hi = leaf.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(leaf.keys[mid]!, leaf.vals[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** `xs.splice(at, 1)` without the array of removed elements that `splice` allocates. */
function removeAt<T>(xs: T[], at: number): void {
  const last = xs.length - 1;
  for (let i = at; i < last; i++) xs[i] = xs[i + 1]!;
  xs.length = last;
}

/** `xs.splice(at, 0, x)` without the (empty) array of removed elements that `splice` allocates. */
function insertAt<T>(xs: T[], at: number, x: T): void {
  for (let i = xs.length; i > at; i--) xs[i] = xs[i - 1]!;
  xs[at] = x;
}
