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
