import type { BTree } from '../../../src/storage/values/btree.js';

/** Every `[key, value]` entry of `tree` in order, read through the leaf links. */
export function treeEntries<K, V>(tree: BTree<K, V>): Array<[K, V]> {
  const out: Array<[K, V]> = [];
  const first = tree.first();
  let i = first.index;
  for (let leaf: typeof first.leaf | null = first.leaf; leaf; leaf = leaf.next, i = 0) {
    for (; i < leaf.keys.length; i++) out.push([leaf.keys[i]!, leaf.vals[i]!]);
  }
  return out;
}
