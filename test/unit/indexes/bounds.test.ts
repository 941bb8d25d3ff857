import { describe, expect, test } from 'vitest';
import { Decimal128, Long, ObjectId } from '../../../src/bson/library.js';
import { complement, formatInterval, intersect, point, union, ALL_VALUES } from '../../../src/storage/planner/intervals.js';
import { analyzeFilter, normaliseFilter } from '../../../src/storage/planner/predicates.js';

/** The bounds of the one predicate of `filter`, printed as explain prints them. */
function bounds(filter: Record<string, unknown>): string[] | null {
  const [p] = analyzeFilter(filter).predicates;
  return p!.bounds ? p!.bounds.map(formatInterval) : null;
}

describe('interval lists', () => {
  test('union merges overlapping and touching intervals; intersection and complement', () => {
    const a = [{ start: 1, startInclusive: true, end: 5, endInclusive: false }];
    const b = [{ start: 5, startInclusive: true, end: 7, endInclusive: true }];
    expect(union([a, b]).map(formatInterval)).toEqual(['[1, 7]']);
    expect(union([[point(3)], [point(1)], [point(3)]]).map(formatInterval)).toEqual(['[1, 1]', '[3, 3]']);
    expect(intersect(a, [{ start: 3, startInclusive: false, end: 9, endInclusive: true }]).map(formatInterval)).toEqual(['(3, 5)']);
    expect(complement([point(5)]).map(formatInterval)).toEqual(['[MinKey, 5)', '(5, MaxKey]']);
    expect(complement(ALL_VALUES)).toEqual([]);
  });
});

describe('index bounds of predicates (mongod index_bounds_builder rules)', () => {
  test('equality and $in are points; null also covers undefined', () => {
    expect(bounds({ a: 5 })).toEqual(['[5, 5]']);
    expect(bounds({ a: { $eq: 'x' } })).toEqual(['["x", "x"]']);
    expect(bounds({ a: { $in: [3, 1, 3] } })).toEqual(['[1, 1]', '[3, 3]']);
    expect(bounds({ a: null })).toEqual(['[undefined, undefined]', '[null, null]']);
    expect(bounds({ a: [1, 2] })).toEqual(['[1, 1]', '[[ 1, 2 ], [ 1, 2 ]]']);
  });

  test('ranges are type-bracketed', () => {
    expect(bounds({ a: { $gt: 5 } })).toEqual(['(5, inf.0]']);
    expect(bounds({ a: { $lte: 5 } })).toEqual(['[-inf.0, 5]']);
    expect(bounds({ a: { $gte: 'b' } })).toEqual(['["b", {})']);
    expect(bounds({ a: { $lt: 'b' } })).toEqual(['["", "b")']);
    expect(bounds({ a: { $gt: new Date(0) } })).toEqual(['(new Date(0), new Date(9223372036854775807)]']);
    expect(bounds({ a: { $gt: ObjectId.createFromHexString('000000000000000000000001') } })).toEqual([
      "(ObjectId('000000000000000000000001'), ObjectId('ffffffffffffffffffffffff')]",
    ]);
    expect(bounds({ a: { $lt: true } })).toEqual(['[false, true)']);
    expect(bounds({ a: { $gt: Long.fromNumber(2) } })).toEqual(['(2, inf.0]']);
    expect(bounds({ a: { $gte: Decimal128.fromString('1.5') } })).toEqual(['[1.5, inf.0]']);
  });

  test('complements: $ne, $nin, $not', () => {
    expect(bounds({ a: { $ne: 3 } })).toEqual(['[MinKey, 3)', '(3, MaxKey]']);
    expect(bounds({ a: { $nin: [1, 3] } })).toEqual(['[MinKey, 1)', '(1, 3)', '(3, MaxKey]']);
    expect(bounds({ a: { $not: { $gt: 5 } } })).toEqual(['[MinKey, 5]', '(inf.0, MaxKey]']);
    expect(bounds({ a: { $ne: { b: 1 } } })).toBeNull();
  });

  test('regexes: a prefix range for an anchored case-sensitive regex, plus the regex itself', () => {
    expect(bounds({ a: /^abc/ })).toEqual(['["abc", "abd")', '[/^abc/, /^abc/]']);
    expect(bounds({ a: { $regex: 'b+', $options: '' } })).toEqual(['["", {})', '[/b+/, /b+/]']);
    expect(bounds({ a: /^ab/i })).toEqual(['["", {})', '[/^ab/i, /^ab/i]']);
    expect(bounds({ a: /^ab*c/ })).toEqual(['["a", "b")', '[/^ab*c/, /^ab*c/]']);
  });

  test('$exists, $elemMatch on values, and predicates without bounds', () => {
    expect(bounds({ a: { $exists: true } })).toEqual(['[MinKey, MaxKey]']);
    expect(bounds({ a: { $exists: false } })).toEqual(['[null, null]']);
    expect(bounds({ a: { $elemMatch: { $gt: 1, $lt: 5 } } })).toEqual(['(1, 5)']);
    expect(bounds({ a: { $size: 2 } })).toBeNull();
    expect(bounds({ a: { $mod: [2, 0] } })).toBeNull();
  });
});

describe('parsedQuery', () => {
  test('normalised as mongod serialises it: $eq, $and sorted by kind then path, $ne as $not', () => {
    expect(normaliseFilter({})).toEqual({});
    expect(normaliseFilter({ a: 1 })).toEqual({ a: { $eq: 1 } });
    expect(normaliseFilter({ b: { $gt: 1 }, a: 2 })).toEqual({ $and: [{ a: { $eq: 2 } }, { b: { $gt: 1 } }] });
    expect(normaliseFilter({ a: { $ne: 1 } })).toEqual({ a: { $not: { $eq: 1 } } });
    expect(normaliseFilter({ a: { $in: [2, 1, 2] } })).toEqual({ a: { $in: [1, 2] } });
    expect(normaliseFilter({ a: { $in: [7] } })).toEqual({ a: { $eq: 7 } });
    expect(normaliseFilter({ $and: [{ a: 1 }, { $or: [{ b: 1 }] }] })).toEqual({ $and: [{ a: { $eq: 1 } }, { b: { $eq: 1 } }] });
    expect(normaliseFilter({ $or: [{ b: 1 }, { a: { $exists: false } }] })).toEqual({
      $or: [{ b: { $eq: 1 } }, { a: { $not: { $exists: true } } }],
    });
  });
});
