/**
 * Sort specifications as mongod parses them (sort_pattern.cpp): numeric directions read as
 * integers (a double truncated, a decimal rounded half to even), `{$meta: ...}` keys (which do
 * not count toward the 32-key limit), and the errors.
 */
import { describe, expect, it } from 'vitest';
import { Decimal128, Double } from '../../../src/bson/library.js';
import { compileSort, parseSortSpec } from '../../../src/storage/query/sort.js';
import { errorOf } from '../thrown.js';

describe('parseSortSpec', () => {
  it.each([
    [new Double(1.999), 1],
    [new Double(-1.999), -1],
    [Decimal128.fromString('0.51'), 1],
    [Decimal128.fromString('1.49'), 1],
    [Decimal128.fromString('-0.51'), -1],
    [Decimal128.fromString('-1.49'), -1],
  ])('reads %s as the direction %d', (value, direction) => {
    expect(parseSortSpec({ v: value }).map((k) => k.direction)).toEqual([direction]);
  });

  it.each([[new Double(0.9)], [Decimal128.fromString('0.5')], [Decimal128.fromString('1.5')], [2]])('refuses %s (15975)', (value) => {
    expect(errorOf(() => parseSortSpec({ v: value }))).toEqual([15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)']);
  });

  it('takes the $meta sorts mongod knows (scores highest first), others are illegal (31138)', () => {
    const keys = parseSortSpec({ v: 1, r: { $meta: 'randVal' }, s: { $meta: 'searchScore' }, t: { $meta: 'textScore' } });
    expect(keys.map((k) => [k.path, k.meta, k.direction])).toEqual([['v', undefined, 1], ['r', 'randVal', 1], ['s', 'searchScore', -1], ['t', 'textScore', -1]]);
    expect(errorOf(() => parseSortSpec({ t: { $meta: 'indexKey' } }))).toEqual([31138, 'Illegal $meta sort: $meta: "indexKey"']);
    expect(errorOf(() => parseSortSpec({ t: { $meta: 1 } }))[0]).toBe(31138);
  });

  it('counts only field keys toward the 32-key limit', () => {
    const spec: Record<string, unknown> = {};
    for (let i = 0; i < 32; i++) spec[`f${i}`] = 1;
    expect(parseSortSpec({ ...spec, m: { $meta: 'randVal' } })).toHaveLength(33);
    expect(errorOf(() => parseSortSpec({ ...spec, f32: 1 }))).toEqual([13103, 'too many compound keys']);
  });

  it('refuses a path of more than 200 components (Overflow)', () => {
    expect(errorOf(() => parseSortSpec({ [Array(201).fill('a').join('.')]: 1 }))).toEqual([15, 'FieldPath is too long. Maximum depth is 200']);
    expect(parseSortSpec({ [Array(200).fill('a').join('.')]: 1 })).toHaveLength(1);
  });

  it('sorts by a searchScore no stage attached as by a constant', () => {
    const docs = [{ v: 2 }, { v: 1 }];
    expect([...docs].sort(compileSort({ v: 1, s: { $meta: 'searchScore' } }))).toEqual([{ v: 1 }, { v: 2 }]);
  });
});
