/** The argument rules convertToCapped and cloneCollectionAsCapped share (_capped_clone.ts). */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { cappedCloneSize, checkCloneName, trueValue } from '../../../src/commands/admin/_internal/capped_clone.js';
import { errorOf } from '../thrown.js';

describe('cappedCloneSize', () => {
  test.each([
    ['an int', 4096, 4096],
    ['a whole double', new Double(4096), 4096],
    ['a fraction, truncated', 3.9, 3],
    ['a Decimal128 rounding half to even up', Decimal128.fromString('1.5'), 2],
    ['a Decimal128 rounding up from 0.51', Decimal128.fromString('0.51'), 1],
    ['1 PB, as an Int64', Long.fromString('1125899906842624'), Long.fromString('1125899906842624')],
  ])('%s is accepted', (_name, value, stored) => {
    expect(cappedCloneSize(value)).toEqual(stored);
  });

  test.each([
    ['absent', undefined, 72, 'invalid command spec'],
    ['a string', '4096', 72, 'invalid command spec'],
    ['a boolean', true, 72, 'invalid command spec'],
    ['zero', 0, 72, 'invalid command spec'],
    ['negative', -1, 72, 'invalid command spec'],
    ['NaN', Number.NaN, 72, 'invalid command spec'],
    ['a fraction truncating to 0', 0.5, 72, 'invalid command spec'],
    ['above 1 PB', Long.fromString('1125899906842625'), 2, "BSON field 'size' value must be <= 1125899906842624, actual value '1125899906842625'"],
    ['+Infinity (Int64 max)', Number.POSITIVE_INFINITY, 2, "BSON field 'size' value must be <= 1125899906842624, actual value '9223372036854775807'"],
  ])('%s is refused', (_name, value, code, message) => {
    expect(errorOf(() => cappedCloneSize(value))).toEqual([code, message]);
  });
});

describe('checkCloneName and trueValue', () => {
  test.each([[''], ['.x'], ['a\0b'], ['a$b']])('%j is not a collection name (73)', (name) => {
    expect(errorOf(() => checkCloneName('source', name))).toEqual([73, `Invalid source collection name: ${name}`]);
  });

  test.each([
    [undefined, false],
    [null, false],
    [false, false],
    [0, false],
    [Long.fromNumber(0), false],
    [true, true],
    [2, true],
    ['', true],
    [{}, true],
  ])('trueValue(%j) is %s', (value, expected) => {
    expect(trueValue(value)).toBe(expected);
  });
});
