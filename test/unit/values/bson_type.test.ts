import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, BSONSymbol, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from '../../../src/bson/library.js';
import { cloneValue } from '../../../src/storage/values/clone.js';
import { BSON_TYPE_CODES, bsonTypeOf } from '../../../src/storage/values/bson_type.js';
import { isNumber, toDouble } from '../../../src/storage/values/numeric.js';
import { formatDoubleNice, formatValue, formatG } from '../../../src/storage/values/format.js';

describe('bsonTypeOf', () => {
  test.each([
    [1, 'int'],
    [-2147483648, 'int'],
    [2147483648, 'double'],
    [1.5, 'double'],
    [-0, 'double'],
    [NaN, 'double'],
    [new Double(1), 'double'],
    [new Int32(7), 'int'],
    [Long.fromNumber(1), 'long'],
    [Decimal128.fromString('1'), 'decimal'],
    ['s', 'string'],
    [new BSONSymbol('s'), 'symbol'],
    [true, 'bool'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{}, 'object'],
    [[], 'array'],
    [new Date(0), 'date'],
    [new ObjectId(), 'objectId'],
    [new Binary(new Uint8Array(0)), 'binData'],
    [new Timestamp({ t: 0, i: 0 }), 'timestamp'],
    [new BSONRegExp('a', ''), 'regex'],
    [/a/, 'regex'],
    [new Code('x'), 'javascript'],
    [new Code('x', {}), 'javascriptWithScope'],
    [new MinKey(), 'minKey'],
    [new MaxKey(), 'maxKey'],
  ] as Array<[unknown, string]>)('%s → %s', (v, name) => {
    expect(bsonTypeOf(v)).toBe(name);
  });

  test('type codes', () => {
    expect(BSON_TYPE_CODES.double).toBe(1);
    expect(BSON_TYPE_CODES.decimal).toBe(19);
    expect(BSON_TYPE_CODES.minKey).toBe(-1);
    expect(BSON_TYPE_CODES.maxKey).toBe(127);
    expect(Object.keys(BSON_TYPE_CODES)).toHaveLength(21);
  });

  test('isNumber and toDouble', () => {
    expect([1, 1.5, new Double(2), Long.fromNumber(3), Decimal128.fromString('4')].map(isNumber)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['1', null, true, new Date(0)].map(isNumber)).toEqual([false, false, false, false]);
    expect(toDouble(Long.fromString('9007199254740993'))).toBe(9007199254740992);
    expect(toDouble(Decimal128.fromString('-1.25'))).toBe(-1.25);
    expect(toDouble(Decimal128.fromString('-Infinity'))).toBe(-Infinity);
    expect(toDouble(new Double(3))).toBe(3);
    expect(toDouble('x')).toBeNaN();
  });
});

describe('cloneValue', () => {
  test('copies documents, arrays, dates and binaries; shares immutable wrappers', () => {
    const oid = new ObjectId();
    const long = Long.fromNumber(5);
    const bin = new Binary(new Uint8Array([1, 2]), 4);
    const src = { a: { b: [1, { c: 2 }] }, d: new Date(5), oid, long, bin };
    const copy = cloneValue(src);
    expect(copy).toEqual(src);
    expect(copy.a).not.toBe(src.a);
    expect(copy.a.b).not.toBe(src.a.b);
    expect(copy.d).not.toBe(src.d);
    expect(copy.d.getTime()).toBe(5);
    expect(copy.bin).not.toBe(bin);
    expect(copy.bin.sub_type).toBe(4);
    expect(Array.from(copy.bin.buffer)).toEqual([1, 2]);
    expect(copy.oid).toBe(oid);
    expect(copy.long).toBe(long);
  });
});

describe('mongod-style rendering', () => {
  test.each([
    [5, '5'],
    [2.5, '2.5'],
    [new Double(5), '5.0'],
    [2 ** 40, '1099511627776.0'],
    [1e20, '1e+20.0'], // appendDoubleNice only looks for '.', 'E' and 'N'
    [NaN, 'nan.0'],
    [Infinity, 'inf.0'],
    [Long.fromNumber(7), '7'],
    [Decimal128.fromString('1.50'), '1.50'],
    ['x', '"x"'],
    [null, 'null'],
    [true, 'true'],
    [[], '[]'],
    [[1, 'a'], '[ 1, "a" ]'],
    [{}, '{}'],
    [{ $gte: 3 }, '{ $gte: 3 }'],
    [{ a: { b: [new Double(1)] } }, '{ a: { b: [ 1.0 ] } }'],
    [new ObjectId('0123456789abcdef01234567'), "ObjectId('0123456789abcdef01234567')"],
    [new Date(12), 'new Date(12)'],
    [new BSONRegExp('a.b', 'i'), '/a.b/i'],
    [new Timestamp({ t: 1, i: 2 }), 'Timestamp(1, 2)'],
    [new Binary(new Uint8Array([1, 171]), 0), 'BinData(0, 01AB)'],
    [new MinKey(), 'MinKey'],
  ] as Array<[unknown, string]>)('%s → %s', (v, text) => {
    expect(formatValue(v)).toBe(text);
  });
  test('%g formatting', () => {
    expect(formatG(2.5, 6)).toBe('2.5');
    expect(formatG(100, 6)).toBe('100');
    expect(formatG(1234567, 6)).toBe('1.23457e+06');
    expect(formatG(0.0001, 6)).toBe('0.0001');
    expect(formatG(0.00001, 6)).toBe('1e-05');
    expect(formatDoubleNice(0.1)).toBe('0.1');
    expect(formatDoubleNice(1 / 3)).toBe('0.3333333333333333');
    expect(formatDoubleNice(-0)).toBe('-0.0');
  });
});
