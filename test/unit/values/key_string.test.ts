import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, BSONSymbol, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from '../../../src/bson/library.js';
import { compareKeyValues } from '../../../src/storage/indexes/index.js';
import { compareValues } from '../../../src/storage/values/compare.js';
import { keyString } from '../../../src/storage/values/key_string.js';

describe('keyString', () => {
  test('numerically equal values share a key', () => {
    const groups: unknown[][] = [
      [1, new Double(1), Long.fromNumber(1), Decimal128.fromString('1'), Decimal128.fromString('1.00')],
      [0, -0, new Double(0), Long.ZERO, Decimal128.fromString('-0'), Decimal128.fromString('0E+10')],
      [NaN, Decimal128.fromString('NaN')],
      [Infinity, Decimal128.fromString('Infinity')],
      [2.5, Decimal128.fromString('2.50')],
      [0.1, Decimal128.fromString('0.1000000000000000055511151231257827')],
      [Long.fromString('9007199254740993'), Decimal128.fromString('9007199254740993')],
      ['abc', new BSONSymbol('abc')],
      [{ a: 1 }, { a: Long.fromNumber(1) }],
      [[1, 'x'], [new Double(1), 'x']],
    ];
    for (const group of groups) {
      const keys = new Set(group.map(keyString));
      expect(keys.size).toBe(1);
    }
  });

  test('different values have different keys', () => {
    const values: unknown[] = [
      null,
      undefined,
      new MinKey(),
      new MaxKey(),
      1,
      2,
      0.1,
      Decimal128.fromString('0.1'),
      Decimal128.fromString('1E-7'),
      1e-7,
      Long.fromString('9007199254740993'),
      9007199254740992,
      '1',
      'n1',
      's',
      '',
      true,
      false,
      { a: 1 },
      { a: '1' },
      { b: 1 },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      [1],
      [[1]],
      [],
      {},
      new Date(0),
      new Timestamp({ t: 0, i: 0 }),
      new ObjectId('000000000000000000000001'),
      new Binary(new Uint8Array([1]), 0),
      new Binary(new Uint8Array([1]), 4),
      new BSONRegExp('a', 'i'),
      new BSONRegExp('a', ''),
      { 'a,b': 1 },
      { a: 'x,"b":1' },
    ];
    const keys = values.map(keyString);
    expect(new Set(keys).size).toBe(values.length);
    // And the key agrees with compareValues on every pair.
    for (let i = 0; i < values.length; i++) {
      for (let j = 0; j < values.length; j++) {
        expect(keys[i] === keys[j]).toBe(compareValues(values[i], values[j]) === 0);
      }
    }
  });

  test('common keys are short', () => {
    expect(keyString(5)).toBe('n5');
    expect(keyString(-0)).toBe('n0');
    expect(keyString('abc')).toBe('sabc');
    // An ObjectId: 'o' and its 12 bytes as one-byte characters.
    expect(keyString(new ObjectId('0123456789abcdef01234567'))).toBe('o\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67');
    expect(keyString(new ObjectId('0123456789abcdef01234567'))).toBe(keyString(new ObjectId('0123456789abcdef01234567')));
    expect(keyString(new ObjectId('0123456789abcdef01234567'))).not.toBe(keyString(new ObjectId('0123456789abcdef01234568')));
    // Fixed length keeps nested keys unambiguous: an ObjectId next to a string in an array.
    expect(keyString([new ObjectId('6f6f6f6f6f6f6f6f6f6f6f6f'), 'x'])).not.toBe(keyString(['oooooooooooo', 'x']));
  });

  test('same key exactly when the _id_ index compares equal (its append check relies on it)', () => {
    const oid = new ObjectId('650000000000000000000001');
    const scalars: unknown[] = [
      0, -0, 1, 1.5, new Double(1), new Int32(1), new Long(1), Decimal128.fromString('1.0'), Decimal128.fromString('1E+0'),
      Decimal128.fromString('-0'), Decimal128.fromString('0E-10'), NaN, new Double(NaN), Decimal128.fromString('NaN'), Infinity,
      Decimal128.fromString('Infinity'), -Infinity, 2 ** 53, Long.fromString('9007199254740993'), Decimal128.fromString('9007199254740993'),
      0.1, Decimal128.fromString('0.1'), 'a', 'A', '', new BSONSymbol('a'), oid, new ObjectId(oid.toHexString()), new Date(0), new Date(1),
      true, false, null, undefined, new BSONRegExp('a', 'i'), new BSONRegExp('a', ''), /a/i, new Binary(Buffer.from([1]), 0),
      new Binary(Buffer.from([1]), 4), new Timestamp({ t: 1, i: 2 }), new MinKey(), new MaxKey(), new Code('x'), new Code('x', { a: 1 }),
    ];
    const values: unknown[] = [...scalars, {}, [], { x: {} }, [[]], { y: 1, x: 1 }, { x: 1, y: 1 }];
    for (const a of scalars.slice(0, 12)) values.push({ x: a }, [a], { x: a, y: 1 }, [a, 'a']);
    const disagreements: string[] = [];
    for (const a of values) {
      for (const b of values) {
        const sameKey = keyString(a) === keyString(b);
        if (sameKey !== (compareKeyValues(a, b) === 0)) disagreements.push(`${keyString(a)} / ${keyString(b)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
