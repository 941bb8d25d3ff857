import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, BSONSymbol, Code, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp } from '../../../src/bson/library.js';
import { compareValues, valuesEqual } from '../../../src/storage/values/compare.js';

const oid = (hex: string) => new ObjectId(hex);

/** One value of every BSON type, in MongoDB's sort order (each strictly above the previous). */
const ORDERED: Array<[string, unknown]> = [
  ['minKey', new MinKey()],
  ['undefined', undefined],
  ['null', null],
  ['number', 1],
  ['string', 'a'],
  ['object', { a: 1 }],
  ['array', [1]],
  ['binData', new Binary(new Uint8Array([1]), 0)],
  ['objectId', oid('000000000000000000000001')],
  ['bool', false],
  ['date', new Date(0)],
  ['timestamp', new Timestamp({ t: 1, i: 1 })],
  ['regex', new BSONRegExp('a', '')],
  ['javascript', new Code('x')],
  ['javascriptWithScope', new Code('x', { a: 1 })],
  ['maxKey', new MaxKey()],
];

describe('compareValues: type order', () => {
  for (let i = 0; i < ORDERED.length; i++) {
    for (let j = 0; j < ORDERED.length; j++) {
      const [na, a] = ORDERED[i]!;
      const [nb, b] = ORDERED[j]!;
      const expected = i < j ? -1 : i > j ? 1 : 0;
      test(`${na} vs ${nb} → ${expected}`, () => {
        expect(compareValues(a, b)).toBe(expected);
      });
    }
  }
});

describe('compareValues: numbers compare by value across types', () => {
  const one = [1, new Double(1), Long.fromNumber(1), Decimal128.fromString('1'), Decimal128.fromString('1.000')];
  for (const a of one) {
    for (const b of one) {
      test(`${String(a)} (${typeof a}) == ${String(b)}`, () => {
        expect(compareValues(a, b)).toBe(0);
        expect(valuesEqual(a, b)).toBe(true);
      });
    }
  }

  test.each([
    [1, 2, -1],
    [2, 1, 1],
    [1.5, 1, 1],
    [Long.fromNumber(2), 1.5, 1],
    [Long.fromNumber(1), 1.5, -1],
    [Decimal128.fromString('1.1'), 1.1, -1], // the double 1.1 is 1.100000000000000088817…
    [Decimal128.fromString('0.1'), 0.1, -1],
    [Decimal128.fromString('-2'), Long.fromNumber(-1), -1],
    [-Infinity, Long.MIN_VALUE, -1],
    [Infinity, Long.MAX_VALUE, 1],
    [Decimal128.fromString('Infinity'), Infinity, 0],
    [Decimal128.fromString('-Infinity'), -1e308, -1],
    [Decimal128.fromString('1E+400'), Infinity, -1],
    [Decimal128.fromString('1E+400'), 1e308, 1],
  ] as Array<[unknown, unknown, number]>)('%s vs %s → %i', (a, b, expected) => {
    expect(compareValues(a, b)).toBe(expected);
    expect(compareValues(b, a)).toBe(expected === 0 ? 0 : -expected);
  });

  test('NaN is equal to NaN and below every other number', () => {
    expect(compareValues(NaN, NaN)).toBe(0);
    expect(compareValues(NaN, Decimal128.fromString('NaN'))).toBe(0);
    expect(compareValues(NaN, -Infinity)).toBe(-1);
    expect(compareValues(Decimal128.fromString('NaN'), Long.MIN_VALUE)).toBe(-1);
    expect(compareValues(Long.fromNumber(0), NaN)).toBe(1);
    expect(compareValues(NaN, null)).toBe(1);
  });

  test('-0 equals 0', () => {
    expect(compareValues(-0, 0)).toBe(0);
    expect(compareValues(Decimal128.fromString('-0'), 0)).toBe(0);
    expect(compareValues(Decimal128.fromString('-0.00'), Long.fromNumber(0))).toBe(0);
  });

  test('Int64 near 2^53 compares exactly against doubles', () => {
    const p53 = 2 ** 53;
    const long53 = Long.fromString('9007199254740992');
    const long53plus1 = Long.fromString('9007199254740993');
    expect(compareValues(long53, p53)).toBe(0);
    // 2^53 + 1 is not a double; the double 2^53 + 1 rounds to 2^53.
    expect(compareValues(long53plus1, p53)).toBe(1);
    expect(compareValues(p53, long53plus1)).toBe(-1);
    expect(compareValues(long53plus1, p53 + 2)).toBe(-1);
    expect(compareValues(Long.fromString('9223372036854775807'), 9223372036854775807)).toBe(-1); // 2^63 as double
    expect(compareValues(Long.fromString('-9223372036854775808'), -9223372036854775808)).toBe(0);
    expect(compareValues(long53plus1, Decimal128.fromString('9007199254740993'))).toBe(0);
    expect(compareValues(Long.fromString('1'), 1.0000000000000002)).toBe(-1);
  });
});

describe('compareValues: within a type', () => {
  test.each([
    ['a', 'b', -1],
    ['a', 'ab', -1],
    ['B', 'a', -1],
    ['', 'a', -1],
    // By UTF-8 bytes: U+FFFD (EF BF BD) sorts below U+1F600 (F0 9F 98 80), unlike UTF-16 order.
    ['\uFFFD', '\u{1F600}', -1],
    ['\u00e9', 'z', 1],
  ] as Array<[string, string, number]>)('%j vs %j → %i', (a, b, expected) => {
    expect(compareValues(a, b)).toBe(expected);
  });

  test('symbols compare as strings', () => {
    expect(compareValues(new BSONSymbol('abc'), 'abc')).toBe(0);
    expect(compareValues(new BSONSymbol('abd'), 'abc')).toBe(1);
  });

  test('objects compare field by field: type, then name, then value, then length', () => {
    expect(compareValues({ a: 1 }, { a: 1 })).toBe(0);
    expect(compareValues({ a: 1 }, { a: 2 })).toBe(-1);
    expect(compareValues({ a: 1 }, { b: 1 })).toBe(-1);
    expect(compareValues({ a: 'x' }, { a: 1 })).toBe(1); // string type above number
    expect(compareValues({ b: 1 }, { a: 'x' })).toBe(-1); // type before name
    expect(compareValues({ a: 1 }, { a: 1, b: 1 })).toBe(-1);
    expect(compareValues({}, { a: 1 })).toBe(-1);
    expect(compareValues({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(-1);
    expect(compareValues({ a: Long.fromNumber(3) }, { a: 3 })).toBe(0);
  });

  test('arrays compare element-wise, then by length', () => {
    expect(compareValues([1, 2], [1, 2])).toBe(0);
    expect(compareValues([1, 2], [1, 3])).toBe(-1);
    expect(compareValues([1], [1, 0])).toBe(-1);
    expect(compareValues([], [null])).toBe(-1);
    expect(compareValues([2], [1, 5])).toBe(1);
    expect(compareValues(['a'], [1])).toBe(1);
  });

  test('binData compares by length, then subtype, then bytes', () => {
    const bin = (bytes: number[], sub = 0) => new Binary(new Uint8Array(bytes), sub);
    expect(compareValues(bin([9]), bin([1, 1]))).toBe(-1);
    expect(compareValues(bin([1], 5), bin([9], 0))).toBe(1);
    expect(compareValues(bin([1, 2]), bin([1, 3]))).toBe(-1);
    expect(compareValues(bin([1, 2]), bin([1, 2]))).toBe(0);
  });

  test('objectIds, booleans, dates, timestamps, regexes, code', () => {
    expect(compareValues(oid('000000000000000000000001'), oid('000000000000000000000002'))).toBe(-1);
    expect(compareValues(oid('ff0000000000000000000000'), oid('0f0000000000000000000000'))).toBe(1);
    expect(compareValues(false, true)).toBe(-1);
    expect(compareValues(true, true)).toBe(0);
    expect(compareValues(new Date(-1), new Date(0))).toBe(-1);
    expect(compareValues(new Timestamp({ t: 1, i: 5 }), new Timestamp({ t: 2, i: 0 }))).toBe(-1);
    expect(compareValues(new Timestamp({ t: 4294967295, i: 0 }), new Timestamp({ t: 1, i: 0 }))).toBe(1);
    expect(compareValues(new Timestamp({ t: 1, i: 2 }), new Timestamp({ t: 1, i: 1 }))).toBe(1);
    expect(compareValues(new BSONRegExp('a', 'i'), new BSONRegExp('a', ''))).toBe(1);
    expect(compareValues(new BSONRegExp('a', 'i'), new BSONRegExp('b', ''))).toBe(-1);
    expect(compareValues(new Code('a'), new Code('b'))).toBe(-1);
    expect(compareValues(new MinKey(), new MinKey())).toBe(0);
    expect(compareValues(new MaxKey(), new MaxKey())).toBe(0);
  });
});

describe('compareValues: Decimal128 against doubles', () => {
  test('a double is rounded to 34 digits before it is compared with a Decimal128', () => {
    // 0.1 as a double is 0.1000000000000000055511151231257827021181583404541015625.
    expect(compareValues(Decimal128.fromString('0.1000000000000000055511151231257827'), 0.1)).toBe(0);
    expect(compareValues(0.1, Decimal128.fromString('0.1000000000000000055511151231257827'))).toBe(0);
    expect(compareValues(Decimal128.fromString('0.1000000000000000055511151231257826'), 0.1)).toBe(-1);
    expect(compareValues(Decimal128.fromString('0.1'), 0.1)).toBe(-1);
  });
});
