/**
 * RecordTable against a Map (its model): random sets, deletes and clears with live iterators
 * created and advanced in between (chunk compactions, merges and emptied chunks, and table
 * resizes included), iterators standing in chunks that change, the bound on the pairs one call
 * renumbers and on the number of chunks, full-hash collisions, wrap-around probe runs, and the
 * key check of `set`.
 */
import { describe, expect, test } from 'vitest';
import { CHUNK_POSITIONS, RecordTable, hashOf } from '../../../src/storage/record_table.js';

type Rec = { readonly id: string; v: number };

/**
 * A deterministic pseudo-random sequence in [0, 1) (mulberry32: a float LCG here lost its low
 * bits past 2^53 and repeated itself within ~10,000 draws).
 */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let z = Math.imul(x ^ (x >>> 15), x | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
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

/** Up to `n` records of an iterator (all of them by default) as `id:v` strings, to compare. */
function shown(it: Iterator<Rec>, n = Infinity): string[] {
  const out: string[] = [];
  while (out.length < n) {
    const r = it.next();
    if (r.done) break;
    out.push(r.value.id + ':' + r.value.v);
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
    expect(() => t.set('x', { id: 'y', v: 0 })).toThrow('record table: key "x" is not the record\'s key');
    expect(t.size).toBe(0);
  });

  test('add stores records under new keys, in insertion order, through chunk closes and resizes', () => {
    const t = new RecordTable<Rec>();
    const recs = Array.from({ length: 5000 }, (_, i) => ({ id: 'k' + i, v: i }));
    for (const r of recs) t.add(r.id, r);
    expect(t.size).toBe(5000);
    expect(recs.every((r) => t.get(r.id) === r)).toBe(true);
    expect([...t.values()].map((r) => r.v)).toEqual(recs.map((r) => r.v));
    for (let i = 0; i < 5000; i += 2) expect(t.delete('k' + i)).toBe(true);
    t.add('k0', recs[0]!);
    expect([t.size, t.get('k0'), [...t.values()].at(-1)]).toEqual([2501, recs[0], recs[0]]);
  });

  test('hasRecord and deleteRecord find that very record, not another under its key', () => {
    const t = new RecordTable<Rec>();
    const a = { id: 'a', v: 1 };
    const twin = { id: 'a', v: 1 };
    t.set('a', a);
    expect([t.hasRecord(a), t.hasRecord(twin), t.deleteRecord(twin), t.size]).toEqual([true, false, false, 1]);
    expect([t.deleteRecord(a), t.hasRecord(a), t.size, t.get('a')]).toEqual([true, false, 0, undefined]);
  });

  test('deleteRecords removes what deleteRecord each would, once each, and lists it first', () => {
    // Batches of up to 2,500 (over two of deleteRecords' groups of CHUNK_POSITIONS) of held
    // records, their twins (same key, another object), records already removed and records
    // listed twice (sometimes in two different groups), against one deleteRecord per entry.
    const rand = lcg(11);
    const recs = Array.from({ length: 20000 }, (_, i) => ({ id: 'k' + i, v: i }));
    const batched = new RecordTable<Rec>();
    const oneByOne = new RecordTable<Rec>();
    for (const r of recs) {
      batched.set(r.id, r);
      oneByOne.set(r.id, r);
    }
    let removedInAll = 0;
    for (let round = 0; round < 40; round++) {
      const size = [1, 7, 64, 300, 2500][round % 5]!;
      const batch: Rec[] = [];
      for (let k = 0; k < size; k++) {
        const r = recs[Math.floor(rand() * recs.length)]!;
        const roll = rand();
        if (roll < 0.1) batch.push({ id: r.id, v: -1 });
        else if (roll < 0.2 && batch.length > 0) batch.push(batch[Math.floor(rand() * batch.length)]!);
        else batch.push(r);
      }
      if (size === 2500) batch[CHUNK_POSITIONS + 5] = batch[3]!;
      const want = batch.filter((r) => oneByOne.deleteRecord(r));
      const listed = [...batch, { id: 'past the count', v: 0 }];
      const got = batched.deleteRecords(listed, batch.length);
      expect(got).toBe(want.length);
      expect(listed.slice(0, got)).toEqual(want);
      expect(listed.slice(0, got).every((r, k) => r === want[k])).toBe(true);
      expect(listed.at(-1)).toEqual({ id: 'past the count', v: 0 });
      removedInAll += got;
    }
    expect(removedInAll).toBe(11944);
    expect([batched.size, oneByOne.size]).toEqual([20000 - removedInAll, 20000 - removedInAll]);
    const left = [...oneByOne.values()];
    expect([...batched.values()]).toEqual(left);
    for (const r of recs) expect(batched.get(r.id)).toBe(oneByOne.get(r.id));
    expect(batched.chunkCount).toBeLessThanOrEqual(batched.size / 64 + 2);
    // The rest in one call, shuffled: the hash table shrinks while the call runs.
    const rest = left.map((r) => [rand(), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    expect(batched.maxRehashedByShrink).toBe(0);
    expect(batched.deleteRecords(rest, rest.length)).toBe(left.length);
    expect(batched.maxRehashedByShrink).toBeGreaterThan(0);
    expect([batched.size, [...batched.values()], batched.get(left[0]!.id), batched.chunkCount]).toEqual([0, [], undefined, 1]);
    expect(batched.deleteRecords([], 0)).toBe(0);
    batched.set('k1', recs[1]!);
    expect([...batched.values()]).toEqual([recs[1]]);
  });

  test('a keying reads keys that records do not carry', () => {
    // Records holding their key reversed: the table reads it through the keying only.
    interface Rev {
      readonly rev: string;
    }
    const key = (r: Rev): string => [...r.rev].reverse().join('');
    const t = new RecordTable<Rev>({ hashOf: (r) => hashOf(key(r)), hasKey: (r, k) => key(r) === k });
    const recs = Array.from({ length: 3000 }, (_, i) => ({ rev: [...('k' + i)].reverse().join('') }));
    for (const r of recs) t.set(key(r), r);
    // Deleting most of them compacts and merges chunks: records are renumbered by their keying hash.
    for (let i = 0; i < 3000; i++) if (i % 7 !== 0) expect(t.deleteRecord(recs[i]!)).toBe(true);
    expect(t.size).toBe(429);
    for (let i = 0; i < 3000; i++) expect(t.get('k' + i)).toBe(i % 7 === 0 ? recs[i] : undefined);
    expect([...t.values()]).toEqual(recs.filter((_, i) => i % 7 === 0));
    expect(() => t.set('zz', { rev: 'yy' })).toThrow('record table: key "zz" is not the record\'s key');
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

  test('an iterator on an emptied chunk goes on to the records after it', () => {
    const t = new RecordTable<Rec>();
    const n = 3 * CHUNK_POSITIONS + 100;
    for (let i = 0; i < n; i++) t.set('r' + i, { id: 'r' + i, v: i });
    const inSecond = t.values();
    const inFirst = t.values();
    expect(take(inSecond, CHUNK_POSITIONS + 10).length).toBe(CHUNK_POSITIONS + 10);
    expect(take(inFirst, 10).length).toBe(10);
    // Empty the second and third chunks (closed), then the iterator's first one but for a record.
    for (let i = CHUNK_POSITIONS; i < 3 * CHUNK_POSITIONS; i++) t.delete('r' + i);
    expect(t.chunkCount).toBe(2);
    expect(take(inSecond, 5).map((r) => r.v)).toEqual([3072, 3073, 3074, 3075, 3076]);
    for (let i = 0; i < CHUNK_POSITIONS - 1; i++) t.delete('r' + i);
    expect(t.chunkCount).toBe(2);
    t.set('new', { id: 'new', v: -1 });
    expect(take(inFirst, n).map((r) => r.v)).toEqual([
      CHUNK_POSITIONS - 1,
      ...Array.from({ length: 100 }, (_, i) => 3 * CHUNK_POSITIONS + i),
      -1,
    ]);
    expect(take(inSecond, n).length).toBe(100 - 5 + 1);
  });

  test('small neighbouring chunks merge, and iterators standing in them go on', () => {
    const C = CHUNK_POSITIONS;
    const t = new RecordTable<Rec>();
    const m = new Map<string, Rec>();
    const put = (i: number): void => {
      const rec = { id: 'r' + i, v: i };
      t.set(rec.id, rec);
      m.set(rec.id, rec);
    };
    const del = (i: number): void => {
      expect([t.delete('r' + i), m.delete('r' + i)]).toEqual([true, true]);
    };
    // Keeps every fourth record of chunk `c` (the first one excepted): 255 of its 1024 positions,
    // which compacts it.
    const thin = (c: number): void => {
      for (let i = c * C + 1; i < (c + 1) * C; i++) if (i % 4 !== 0) del(i);
      del(c * C);
    };
    for (let i = 0; i < 5 * C + 10; i++) put(i);
    // Iterators standing in each closed chunk.
    const pairs = [300, C + 500, 2 * C + 100, 3 * C + 40, 4 * C + 10].map((n) => {
      const pair: [Iterator<Rec>, Iterator<Rec>] = [t.values(), m.values()];
      expect(shown(pair[0], n)).toEqual(shown(pair[1], n));
      return pair;
    });
    expect(t.chunkCount).toBe(6);
    // The third chunk compacts alone (the second is full), then the second compacts and takes
    // the third in: 255 + 255 positions fit in half a chunk.
    thin(2);
    expect(t.chunkCount).toBe(6);
    thin(1);
    expect(t.chunkCount).toBe(5);
    // The fourth, then the fifth, compact into the chunk before them (1020 positions).
    thin(3);
    expect(t.chunkCount).toBe(4);
    for (let i = 4 * C; i < 5 * C; i++) if (m.has('r' + i)) del(i);
    expect(t.chunkCount).toBe(3);
    // The first compacts alone (nothing before it) until it empties.
    for (let i = 0; i < C; i++) del(i);
    expect(t.chunkCount).toBe(2);
    expect(t.maxRenumberedInOneCall).toBeLessThanOrEqual(CHUNK_POSITIONS);
    for (const [a, b] of pairs) expect(shown(a)).toEqual(shown(b));
    expect(shown(t.values())).toEqual(shown(m.values()));
  });

  test('no delete renumbers more than a chunk of pairs, and the chunks stay few', () => {
    const n = 200000;
    const rand = lcg(7);
    const t = new RecordTable<Rec>();
    const keys = Array.from({ length: n }, (_, i) => 'key' + i);
    for (const k of keys) t.set(k, { id: k, v: 0 });
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    let deleted = 0;
    let chunksOverBound = 0;
    for (let i = 0; i < n; i++) {
      if (t.delete(keys[i]!)) deleted++;
      if (t.chunkCount > t.size / 64 + 2) chunksOverBound++;
      if (i === n / 2) expect(new Set([...t.values()].map((r) => r.id)).size).toBe(n / 2 - 1);
    }
    expect([deleted, chunksOverBound]).toEqual([n, 0]);
    expect([t.size, [...t.values()], t.chunkCount]).toEqual([0, [], 1]);
    // The most pairs any one call renumbered: compactions happened, each within the bound.
    expect(t.maxRenumberedInOneCall).toBeGreaterThan(CHUNK_POSITIONS / 8);
    expect(t.maxRenumberedInOneCall).toBeLessThanOrEqual(CHUNK_POSITIONS);
    // The hash table (2^19 pairs for 200,000 records) shrank, re-placing under 1/64 of its pairs.
    expect(t.maxRehashedByShrink).toBeGreaterThan(0);
    expect(t.maxRehashedByShrink).toBeLessThan(2 ** 19 / 64);
  });

  test('a few survivors of many chunks end up in one', () => {
    const t = new RecordTable<Rec>();
    const n = 100 * CHUNK_POSITIONS;
    for (let i = 0; i < n; i++) t.set('r' + i, { id: 'r' + i, v: i });
    const rand = lcg(3);
    const order = Array.from({ length: n }, (_, i) => i).filter((i) => i % 1000 !== 0);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) t.delete('r' + i);
    expect(t.size).toBe(Math.ceil(n / 1000));
    expect(t.chunkCount).toBeLessThanOrEqual(2);
    expect([...t.values()].map((r) => r.v)).toEqual(Array.from({ length: t.size }, (_, i) => 1000 * i));
    for (let i = 0; i < n; i += 1000) expect(t.get('r' + i)!.v).toBe(i);
  });

  test('random operations agree with a Map, iterators included', () => {
    // Every set of an absent key takes a new position, so churn in a small key space fills chunk
    // after chunk, mostly with holes: they compact, merge and empty while iterators stand in
    // them and cross them (in all, ~160 compactions in place, ~50 into the chunk before, ~30
    // emptied chunks, and iterators following ~1,100 compactions, ~80 merges, ~90 emptied
    // chunks and ~70 clears). Phases that mostly insert or mostly delete grow and shrink the
    // table (and its hash table) by thousands.
    // Each disagreement is recorded (the first few are shown): calling expect on each of the
    // ~1,000,000 results would take most of the test's time.
    const disagreements: string[] = [];
    const agree = (what: string, got: unknown, want: unknown): void => {
      const [a, b] = [JSON.stringify(got), JSON.stringify(want)];
      if (a !== b && disagreements.length < 5) disagreements.push(`${what}: ${a} instead of ${b}`);
    };
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const rand = lcg(seed);
      const t = new RecordTable<Rec>();
      const m = new Map<string, Rec>();
      const iters: Array<[Iterator<Rec>, Iterator<Rec>]> = [];
      const keySpace = [100, 400, 1500, 4000][seed % 4]!;
      const shares = [0.5, 0.95, 0.1, 0.6, 0.03, 0.9, 0.3];
      let setShare = 0.5;
      for (let step = 0; step < 80000; step++) {
        if (step % 4000 === 0) {
          agree(`seed ${seed} step ${step} values`, shown(t.values()), shown(m.values()));
          agree(`seed ${seed} step ${step} chunks within bound`, t.chunkCount <= t.size / 64 + 2, true);
          setShare = shares[(step / 4000 + seed) % shares.length]!;
        }
        const r = rand();
        const key = 'k' + Math.floor(rand() * keySpace);
        if (r < 0.9) {
          if (rand() < setShare) {
            const rec = { id: key, v: step };
            t.set(key, rec);
            m.set(key, rec);
          } else {
            agree(`seed ${seed} step ${step} delete`, t.delete(key), m.delete(key));
          }
        } else if (r < 0.90002) {
          t.clear();
          m.clear();
        } else if (r < 0.91) {
          const pair: [Iterator<Rec>, Iterator<Rec>] = [t.values(), m.values()];
          if (iters.length < 16) iters.push(pair);
          else iters[Math.floor(rand() * iters.length)] = pair;
        } else if (r < 0.95 && iters.length > 0) {
          const [a, b] = iters[Math.floor(rand() * iters.length)]!;
          // Mostly short steps (so iterators stand in chunks that change), sometimes long ones.
          const n = rand() < 0.9 ? 1 + Math.floor(rand() * 20) : 1 + Math.floor(rand() * 3000);
          agree(`seed ${seed} step ${step} iterator`, shown(a, n), shown(b, n));
        } else {
          const [got, want] = [[t.get(key), t.has(key), t.size], [m.get(key), m.has(key), m.size]];
          agree(`seed ${seed} step ${step} get/has/size`, got, want);
        }
      }
      expect(disagreements).toEqual([]);
      expect(shown(t.values())).toEqual(shown(m.values()));
      for (const [a, b] of iters) expect(shown(a)).toEqual(shown(b));
      for (const key of m.keys()) expect(t.get(key)).toBe(m.get(key));
      expect(t.maxRenumberedInOneCall).toBeLessThanOrEqual(CHUNK_POSITIONS);
      expect(t.maxRenumberedInOneCall).toBeGreaterThan(0);
    }
  });
});
