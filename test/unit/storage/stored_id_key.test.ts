/**
 * The canonical key of a stored document's `_id`, read from its bytes (src/storage/values/
 * key_string.ts): the same key, hash and equality as `keyString` of the decoded `_id`, for every
 * kind of `_id` (those read in place and those decoded).
 */
import { describe, expect, it } from 'vitest';
import { Binary, Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { encodeStored } from '../../../src/storage/record_format.js';
import { hashOf, storedIdHasKey, storedIdKey, storedIdKeyHash } from '../../../src/storage/record_table.js';
import { keyString } from '../../../src/storage/values/key_string.js';

const ids: unknown[] = [
  new ObjectId('65a1b2c3d4e5f60718293a4b'),
  new ObjectId('000000000000000000000000'),
  new ObjectId('ffffffffffffffffffffffff'),
  0,
  -1,
  7,
  2147483647,
  -2147483648,
  2.5,
  new Double(3),
  Long.fromNumber(7),
  Decimal128.fromString('7.0'),
  '',
  'a',
  'user42',
  'héllo',
  '日本',
  new Date(1700000000000),
  true,
  null,
  { a: 1, b: 'x' },
  new Binary(Buffer.from([1, 2, 3])),
];

describe('stored _id keys', () => {
  it('give the key, hash and equality of keyString of the _id', () => {
    for (const id of ids) {
      const bson = encodeStored({ _id: id, other: 'x' } as Document, 0);
      const key = keyString(id);
      expect(storedIdKey(bson)).toBe(key);
      expect(storedIdKeyHash(bson)).toBe(hashOf(key));
      expect(storedIdHasKey(bson, key)).toBe(true);
      for (const other of ids) {
        const otherKey = keyString(other);
        expect(storedIdHasKey(bson, otherKey)).toBe(otherKey === key);
      }
    }
  });

  it('treat numerically equal _ids of different types as one key', () => {
    const int = encodeStored({ _id: 7 }, 0);
    expect(storedIdHasKey(int, keyString(Long.fromNumber(7)))).toBe(true);
    expect(storedIdHasKey(int, keyString(new Double(7)))).toBe(true);
    expect(storedIdKeyHash(encodeStored({ _id: new Double(7) }, 0))).toBe(storedIdKeyHash(int));
  });
});

describe('int32 _id keys, hashed and compared with no string built', () => {
  const values = [0, 1, -1, 9, 10, 11, 99, 100, 101, 999999999, 1000000000, 1000000001, 2147483647, -2147483648, -9, -10, -1000000000, 12345, -54321];
  for (let i = 0; i < 200; i++) values.push(((i * 2654435761) | 0) >> (i % 31));

  it('hash as keyString does', () => {
    for (const n of values) expect(storedIdKeyHash(encodeStored({ _id: n }, 0))).toBe(hashOf(keyString(n)));
  });

  it('equal only the key of the same number (prefixes, signs and other kinds differ)', () => {
    for (const n of values) {
      const bson = encodeStored({ _id: n }, 0);
      expect(storedIdHasKey(bson, keyString(n))).toBe(true);
      expect(storedIdHasKey(bson, keyString(n) + '0')).toBe(false);
      expect(storedIdHasKey(bson, keyString(n).slice(0, -1))).toBe(false);
      expect(storedIdHasKey(bson, keyString(-n - 1))).toBe(false);
      expect(storedIdHasKey(bson, keyString(String(n)))).toBe(false);
    }
  });
});
