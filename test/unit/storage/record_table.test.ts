/**
 * RecordTable against a Map (its model): random sets, deletes and clears with live iterators
 * created and advanced in between (compactions and table resizes included), full-hash
 * collisions, wrap-around probe runs, and the key check of `set`.
 */
import { describe, expect, test } from 'vitest';
import { CHUNK_POSITIONS, RecordTable, hashOf } from '../../../src/storage/record_table.js';

type Rec = { readonly id: string; v: number };

/** A deterministic pseudo-random sequence in [0, 1). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** Takes up to `n` values from an iterator (fewer when it ends). */
function take<T>(it: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    const r = it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

describe('RecordTable', () => {
  test('get, has, set, delete, size, values in insertion order', () => {
    const t = new RecordTable<Rec>();
    const a = { id: 'a', v: 1 };
    const b = { id: 'b', v: 2 };
    const c = { id: 'c', v: 3 };
    t.set('a', a).set('b', b).set('c', c);
    expect([t.size, t.get('b'), t.has('c'), t.has('d'), t.get('d')]).toEqual([3, b, true, false, undefined]);
    const b2 = { id: 'b', v: 4 };
    t.set('b', b2);
    expect([...t.values()]).toEqual([a, b2, c]);
    expect([t.delete('a'), t.delete('a'), t.size]).toEqual([true, false, 2]);
    t.set('a', a);
    expect([...t.values()].map((r) => r.id)).toEqual(['b', 'c', 'a']);
    t.clear();
    expect([t.size, [...t.values()], t.get('b')]).toEqual([0, [], undefined]);
  });

  test('set refuses a key other than the record id', () => {
    const t = new RecordTable<Rec>();
    expect(() => t.set('x', { id: 'y', v: 0 })).toThrow('record table: key "x" is not the record\'s id');
    expect(t.size).toBe(0);
  });

  test('two keys with the same full hash are both stored, found and deleted', () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const key = 'k' + i;
      const h = hashOf(key);
      const other = seen.get(h);
      if (other !== undefined) pair = [other, key];
      else seen.set(h, key);
    }
    const [x, y] = pair;
    expect(hashOf(x)).toBe(hashOf(y));
    const t = new RecordTable<Rec>();
    t.set(x, { id: x, v: 1 });
    expect([t.get(y), t.has(y)]).toEqual([undefined, false]);
    t.set(y, { id: y, v: 2 });
    expect([t.get(x)!.v, t.get(y)!.v, t.size]).toEqual([1, 2, 2]);
    expect(t.delete(x)).toBe(true);
    expect([t.get(x), t.get(y)!.v, t.size]).toEqual([undefined, 2, 1]);
  });

  test('an iterator sees later records, skips deleted ones, ends for good, and follows a clear', () => {
    const t = new RecordTable<Rec>();
    const recs = Array.from({ length: 10 }, (_, i) => ({ id: 'r' + i, v: i }));
    for (const r of recs.slice(0, 5)) t.set(r.id, r);
    const it = t.values();
    expect(take(it, 2).map((r) => r.v)).toEqual([0, 1]);
    t.delete('r1');
    t.delete('r3');
    t.set('r5', recs[5]!);
    expect(take(it, 10).map((r) => r.v)).toEqual([2, 4, 5]);
    t.set('r6', recs[6]!);
    expect(it.next()).toEqual({ value: undefined, done: true });
    const after = t.values();
    expect(take(after, 1).map((r) => r.v)).toEqual([0]);
    t.clear();
    t.set('r7', recs[7]!);
    expect(take(after, 10).map((r) => r.v)).toEqual([7]);
  });

  test('an iterator keeps its place through chunk compactions and merges', () => {
    const t = new RecordTable<Rec>();
    const n = 10 * CHUNK_POSITIONS;
    for (let i = 0; i < n; i++) t.set('r' + i, { id: 'r' + i, v: i });
    const it = t.values();
    expect(take(it, n / 2).length).toBe(n / 2);
    // Deleting most records before and after the iterator's place compacts every closed chunk
    // (the one it is in included) and merges them.
    for (let i = 0; i < n; i++) if (i % 10 !== 0 && i !== n / 2 + 5) t.delete('r' + i);
    expect(t.size).toBe(n / 10 + 1);
    expect(t.maxRenumberedInOneCall).toBeGreaterThan(0);
    expect(t.chunkCount).toBeLessThanOrEqual(t.size / 64 + 2);
    const rest = [n / 2, n / 2 + 5, ...Array.from({ length: n / 20 - 1 }, (_, i) => n / 2 + 10 + 10 * i)];
    expect(take(it, n).map((r) => r.v)).toEqual(rest);
    const all = Array.from({ length: n / 10 }, (_, i) => 10 * i);
    all.splice(n / 20 + 1, 0, n / 2 + 5);
    expect([...t.values()].map((r) => r.v)).toEqual(all);
  });

  test('random operations agree with a Map, iterators included', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rand = lcg(seed);
      const t = new RecordTable<Rec>();
      const m = new Map<string, Rec>();
      const iters: Array<[Iterator<Rec>, Iterator<Rec>]> = [];
      const keySpace = seed % 2 === 0 ? 40 : 3000;
      for (let step = 0; step < 20000; step++) {
        const r = rand();
        const key = 'k' + Math.floor(rand() * keySpace);
        if (r < 0.5) {
          const rec = { id: key, v: step };
          t.set(key, rec);
          m.set(key, rec);
        } else if (r < 0.9) {
          expect(t.delete(key)).toBe(m.delete(key));
        } else if (r < 0.9005) {
          t.clear();
          m.clear();
        } else if (r < 0.91) {
          iters.push([t.values(), m.values()]);
        } else if (r < 0.95 && iters.length > 0) {
          const [a, b] = iters[Math.floor(rand() * iters.length)]!;
          const n = 1 + Math.floor(rand() * 50);
          expect(take(a, n)).toEqual(take(b, n));
        } else {
          expect([t.get(key), t.has(key), t.size]).toEqual([m.get(key), m.has(key), m.size]);
        }
      }
      expect([...t.values()]).toEqual([...m.values()]);
      for (const [a, b] of iters) expect(take(a, 100000)).toEqual(take(b, 100000));
      for (const key of m.keys()) expect(t.get(key)).toBe(m.get(key));
    }
  });
});
