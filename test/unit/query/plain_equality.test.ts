/**
 * `{field: value}` with a plain value skips the filter parser and the planner's general
 * analysis (`plainEqualityField`): it must match, and be analysed, exactly as the general path
 * does (reached here through an equivalent `$and` of that one equality).
 */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { compileFilter, plainEqualityField } from '../../../src/storage/query/compile_filter.js';
import { analyzeFilter } from '../../../src/storage/planner/predicates.js';
import { Collator } from '../../../src/storage/values/collator.js';

const OID = new ObjectId('64b7f0c2a1b2c3d4e5f60718');
const DATE = new Date(1_600_000_000_000);

describe('plainEqualityField', () => {
  test.each([
    [{ k: 5 }, 'k'],
    [{ 'a.b': 'x' }, 'a.b'],
    [{ _id: OID }, '_id'],
    [{ d: DATE }, 'd'],
    [{ f: false }, 'f'],
    [{ n: Number.NaN }, 'n'],
  ] as Array<[Document, string]>)('%o is a plain equality on %s', (filter, field) => {
    expect(plainEqualityField(filter)).toBe(field);
  });
  test.each([
    [{}],
    [{ a: 1, b: 2 }],
    [{ $expr: true }],
    [{ a: null }],
    [{ a: { $gt: 1 } }],
    [{ a: { b: 1 } }],
    [{ a: [1] }],
    [{ a: /x/ }],
    [{ a: Long.fromNumber(1) }],
    [{ a: new Double(1) }],
    [{ a: Decimal128.fromString('1') }],
  ] as Array<[Document]>)('%o is not', (filter) => {
    expect(plainEqualityField(filter)).toBeUndefined();
  });
});

const VALUES: unknown[] = [5, 5.5, -0, Number.NaN, 'abc', 'ABC', '', true, false, OID, DATE];
const DOCS: Document[] = [
  {},
  { k: 5 },
  { k: new Double(5) },
  { k: Long.fromNumber(5) },
  { k: Decimal128.fromString('5.0') },
  { k: 5.5 },
  { k: 0 },
  { k: Number.NaN },
  { k: 'abc' },
  { k: 'Abc' },
  { k: '' },
  { k: true },
  { k: false },
  { k: OID },
  { k: new ObjectId('64b7f0c2a1b2c3d4e5f60719') },
  { k: DATE },
  { k: new Date(1_600_000_000_001) },
  { k: null },
  { k: [1, 5, 'abc'] },
  { k: [[5]] },
  { k: [OID, true] },
  { k: { x: 5 } },
  { a: { b: 5 } },
  { a: [{ b: 'abc' }, { b: 5 }] },
  { a: { b: [DATE] } },
];

describe('a plain equality matches as the general parser matches', () => {
  for (const collator of [null, new Collator({ locale: 'en', strength: 2 })]) {
    for (const path of ['k', 'a.b']) {
      test(`${path}${collator ? ' under a strength-2 collation' : ''}`, () => {
        for (const value of VALUES) {
          const fast = compileFilter({ [path]: value }, { collator });
          const general = compileFilter({ $and: [{ [path]: value }] }, { collator });
          const got = DOCS.map((d) => fast(d));
          expect(got, `${path}: ${String(value)}`).toEqual(DOCS.map((d) => general(d)));
        }
      });
    }
  }
  test('it does match (the comparison is not vacuous)', () => {
    expect(DOCS.filter(compileFilter({ k: 5 })).length).toBe(5); // 5, 5.0, 5L, 5.0m and [1, 5, 'abc']
    expect(DOCS.filter(compileFilter({ 'a.b': 'abc' })).length).toBe(1);
  });
});

describe('a plain equality is analysed as the general walk analyses it', () => {
  for (const value of VALUES) {
    test(String(value), () => {
      expect(analyzeFilter({ 'a.b': value })).toEqual(analyzeFilter({ $and: [{ 'a.b': value }] }));
      const collator = new Collator({ locale: 'fr' });
      expect(analyzeFilter({ k: value }, collator)).toEqual(analyzeFilter({ $and: [{ k: value }] }, collator));
    });
  }
});
