import { describe, expect, test } from 'vitest';
import { CommandError } from '../../../src/errors/command_error.js';
import { KeyGenerator } from '../../../src/storage/indexes/key_generator.js';
import { Index, compareKeyValues } from '../../../src/storage/indexes/index.js';
import { ObjectId } from '../../../src/bson/library.js';
import { compareValues } from '../../../src/storage/values/compare.js';

const keys = (fields: string[], doc: Record<string, unknown>, sparse = false) => new KeyGenerator(fields, sparse).keysOf(doc);

describe('KeyGenerator (mongod BtreeKeyGenerator)', () => {
  test('a scalar, a missing field (null), a sparse index skipping a missing field', () => {
    expect(keys(['a'], { a: 5 })).toEqual({ keys: [5], multikeyComponents: null });
    expect(keys(['a'], {})).toEqual({ keys: [null], multikeyComponents: null });
    expect(keys(['a'], {}, true)).toEqual({ keys: [], multikeyComponents: null });
    expect(keys(['a.b'], { a: { b: 'x' } })).toEqual({ keys: ['x'], multikeyComponents: null });
    expect(keys(['a.b'], { a: 3 })).toEqual({ keys: [null], multikeyComponents: null });
  });

  test('arrays: one key per distinct element, an empty array is undefined, nested arrays stay whole', () => {
    expect(keys(['a'], { a: [3, 1, 3] })).toEqual({ keys: [3, 1], multikeyComponents: [[0]] });
    expect(keys(['a'], { a: [] })).toEqual({ keys: [undefined], multikeyComponents: [[0]] });
    expect(keys(['a'], { a: [[1, 2], 3] })).toEqual({ keys: [[1, 2], 3], multikeyComponents: [[0]] });
    expect(keys(['a.b'], { a: [{ b: 1 }, { b: 2 }, { c: 3 }, 7] })).toEqual({ keys: [1, 2, null], multikeyComponents: [[0]] });
    expect(keys(['a.b'], { a: [] })).toEqual({ keys: [null], multikeyComponents: [[0]] });
    expect(keys(['a.b'], { a: { b: [4, 5] } })).toEqual({ keys: [4, 5], multikeyComponents: [[1]] });
  });

  test('compound keys: the cross product with a scalar, and one key per element of a shared array', () => {
    expect(keys(['a', 'b'], { a: [1, 2], b: 'x' })).toEqual({ keys: [[1, 'x'], [2, 'x']], multikeyComponents: [[0], []] });
    expect(keys(['a.b', 'a.c'], { a: [{ b: 1, c: 5 }, { b: 2, c: 3 }] })).toEqual({
      keys: [
        [1, 5],
        [2, 3],
      ],
      multikeyComponents: [[0], [0]],
    });
    expect(keys(['a', 'b'], {})).toEqual({ keys: [[null, null]], multikeyComponents: null });
    expect(keys(['a', 'b'], { b: 1 }, true)).toEqual({ keys: [[null, 1]], multikeyComponents: null });
    expect(keys(['a', 'b'], {}, true)).toEqual({ keys: [], multikeyComponents: null });
  });

  test('a positional path component indexes one element', () => {
    expect(keys(['a.1'], { a: [5, 6] })).toEqual({ keys: [6], multikeyComponents: null });
    expect(keys(['a.0.b'], { a: [{ b: 9 }, { b: 8 }] })).toEqual({ keys: [9], multikeyComponents: null });
  });

  test('two different arrays in one compound key are parallel arrays (171)', () => {
    let error: unknown;
    try {
      keys(['a', 'b'], { a: [1], b: [2] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CommandError);
    expect([(error as CommandError).code, (error as CommandError).codeName, (error as CommandError).message]).toEqual([
      171,
      'CannotIndexParallelArrays',
      'cannot index parallel arrays [b] [a]',
    ]);
  });
});

describe('Index keys', () => {
  test('a hashed field refuses arrays (16766) and a partial filter skips documents', () => {
    const hashed = new Index({ v: 2, key: { a: 'hashed' }, name: 'a_hashed' });
    expect(hashed.keysOf({ a: 1 }).keys).toEqual([1]);
    expect(() => hashed.keysOf({ a: [1] })).toThrow('Error: hashed indexes do not currently support array values. Found array at path: a');
    const partial = new Index({ v: 2, key: { a: 1 }, name: 'a_1', partialFilterExpression: { b: { $gt: 5 } } });
    expect(partial.keysOf({ a: 1, b: 6 }).keys).toEqual([1]);
    expect(partial.keysOf({ a: 1, b: 5 }).keys).toEqual([]);
  });

  test('text, 2dsphere and the Cosmos _ts TTL index keep no entries', () => {
    expect(new Index({ v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 't' }).entryless).toBe(true);
    expect(new Index({ v: 2, key: { g: '2dsphere' }, name: 'g' }).entryless).toBe(true);
    const ts = new Index({ v: 2, key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 });
    expect([ts.entryless, ts.queryable, ts.keysOf({ _ts: 5 }).keys]).toEqual([true, false, []]);
    const plainTs = new Index({ v: 2, key: { _ts: 1 }, name: '_ts_1' });
    expect([plainTs.entryless, plainTs.keysOf({ _ts: 5 }).keys]).toEqual([false, [5]]);
  });

  test('descending fields order keys backwards; the key value document names the fields', () => {
    const index = new Index({ v: 2, key: { a: 1, b: -1 }, name: 'a_1_b_-1' });
    expect(index.compareKeys([1, 5], [1, 3])).toBe(-1);
    expect(index.compareKeys([0, 5], [1, 3])).toBe(-1);
    expect(index.keyValueDoc([1, null])).toEqual({ a: 1, b: null });
  });
});

describe('compareKeyValues', () => {
  test('orders ObjectIds exactly as compareValues does (byte order), and everything else through it', () => {
    const hexes = ['000000000000000000000000', '00000000000000000000000f', '0000000000ff000000000000', '7fffffffffffffffffffffff', '800000000000000000000000', 'ff0000000000000000000001', 'ffffffffffffffffffffffff'];
    const ids = hexes.map((h) => ObjectId.createFromHexString(h));
    for (const a of ids) for (const b of ids) expect(compareKeyValues(a, b)).toBe(compareValues(a, b));
    expect([compareKeyValues(ids[1], ids[2]), compareKeyValues(ids[6], ids[0]), compareKeyValues(ids[3], ids[3])]).toEqual([-1, 1, 0]);
    expect([compareKeyValues(1, 'a'), compareKeyValues(null, ids[0]), compareKeyValues({ a: 1 }, { a: 1 })]).toEqual([-1, -1, 0]);
  });
});
