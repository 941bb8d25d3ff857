import { describe, expect, test } from 'vitest';
import { BTree } from '../../../src/storage/values/btree.js';
import { treeEntries } from '../indexes/tree_entries.js';

type Entry = { key: number; val: number };
const cmp = (ak: number, av: number, bk: number, bv: number): number => ak - bk || av - bv;

/** Every entry in index order, read through the leaf links. */
const entries = (tree: BTree<number, number>): Entry[] => treeEntries(tree).map(([key, val]) => ({ key, val }));

/** Every entry read backwards from the last one. */
function entriesBackwards(tree: BTree<number, number>): Entry[] {
  const out: Entry[] = [];
  const p = tree.last();
  let leaf = p.leaf as typeof p.leaf | null;
  let i = p.index;
  while (leaf) {
    for (; i >= 0; i--) out.push({ key: leaf.keys[i]!, val: leaf.vals[i]! });
    leaf = leaf.prev;
    i = leaf ? leaf.keys.length - 1 : 0;
  }
  return out;
}

/** A deterministic pseudo-random sequence. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
}

describe('BTree', () => {
  test('an empty tree has no entries, and seek/rank/first/last agree', () => {
    const tree = new BTree<number, number>(cmp);
    expect(tree.size).toBe(0);
    expect(entries(tree)).toEqual([]);
    expect(tree.rank(() => true)).toBe(0);
    const p = tree.seek(() => true);
    expect(p.index).toBe(0);
    expect(p.leaf.keys.length).toBe(0);
    expect(tree.last().index).toBe(-1);
  });

  test('insert keeps entries ordered by key then value and refuses exact duplicates', () => {
    const tree = new BTree<number, number>(cmp);
    expect(tree.insert(5, 1)).toBe(true);
    expect(tree.insert(3, 2)).toBe(true);
    expect(tree.insert(5, 0)).toBe(true);
    expect(tree.insert(5, 1)).toBe(false);
    expect(tree.size).toBe(3);
    expect(entries(tree)).toEqual([
      { key: 3, val: 2 },
      { key: 5, val: 0 },
      { key: 5, val: 1 },
    ]);
    expect(tree.delete(5, 7)).toBe(false);
    expect(tree.delete(5, 0)).toBe(true);
    expect(entries(tree)).toEqual([
      { key: 3, val: 2 },
      { key: 5, val: 1 },
    ]);
  });

  test('10,000 random inserts and deletes match a sorted reference, both directions, with ranks', () => {
    const tree = new BTree<number, number>(cmp);
    const reference = new Map<string, Entry>();
    const rand = lcg(42);
    for (let step = 0; step < 10_000; step++) {
      const key = rand() % 500;
      const val = rand() % 20;
      const id = `${key}:${val}`;
      if (rand() % 3 === 0 && reference.size > 0) {
        expect(tree.delete(key, val)).toBe(reference.delete(id));
      } else {
        expect(tree.insert(key, val)).toBe(!reference.has(id));
        reference.set(id, { key, val });
      }
    }
    const sorted = [...reference.values()].sort((a, b) => cmp(a.key, a.val, b.key, b.val));
    expect(tree.size).toBe(sorted.length);
    expect(entries(tree)).toEqual(sorted);
    expect(entriesBackwards(tree)).toEqual([...sorted].reverse());
    for (const probe of [0, 1, 77, 250, 499, 500]) {
      const expected = sorted.filter((e) => e.key < probe).length;
      expect(tree.rank((k) => k >= probe)).toBe(expected);
      const p = tree.seek((k) => k >= probe);
      const first = sorted.find((e) => e.key >= probe);
      if (first) expect({ key: p.leaf.keys[p.index], val: p.leaf.vals[p.index] }).toEqual(first);
      else expect(p.index).toBe(p.leaf.keys.length);
    }
  });

  test('deleting everything leaves an empty, usable tree', () => {
    const tree = new BTree<number, number>(cmp);
    for (let i = 0; i < 5000; i++) tree.insert(i, 0);
    for (let i = 0; i < 5000; i += 2) tree.delete(i, 0);
    expect(entries(tree).map((e) => e.key)).toEqual(Array.from({ length: 2500 }, (_, i) => 2 * i + 1));
    for (let i = 1; i < 5000; i += 2) tree.delete(i, 0);
    expect(tree.size).toBe(0);
    expect(entries(tree)).toEqual([]);
    tree.insert(9, 9);
    expect(entries(tree)).toEqual([{ key: 9, val: 9 }]);
  });

  test('load builds the tree from sorted entries in one pass', () => {
    const tree = new BTree<number, number>(cmp);
    const keys = Array.from({ length: 3000 }, (_, i) => i);
    tree.load(keys, keys.map(() => 1));
    expect(tree.size).toBe(3000);
    expect(entries(tree).map((e) => e.key)).toEqual(keys);
    expect(tree.rank((k) => k >= 1234)).toBe(1234);
    tree.insert(1234, 0);
    tree.delete(10, 1);
    expect(tree.rank((k) => k >= 1234)).toBe(1233);
    expect(entries(tree).length).toBe(3000);
  });

  test('every change bumps the version (open scans re-seek)', () => {
    const tree = new BTree<number, number>(cmp);
    const v0 = tree.version;
    tree.insert(1, 1);
    const v1 = tree.version;
    tree.insert(1, 1);
    expect(tree.version).toBe(v1);
    tree.delete(1, 1);
    expect(v1).toBeGreaterThan(v0);
    expect(tree.version).toBeGreaterThan(v1);
  });
});
