/** `$dateToParts`: calendar and ISO 8601 parts as Int32s, zones, and mongod 8.2's errors. */
import { describe, it } from 'vitest';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';
import { compile, evaluateField } from '../helpers.js';

const DOC = { d: new Date(Date.UTC(2021, 0, 1, 14, 30, 45, 123)) }; // Friday, ISO 2020-W53-5

describe('$dateToParts', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['calendar parts', { date: '$d' }, { year: 2021, month: 1, day: 1, hour: 14, minute: 30, second: 45, millisecond: 123 }],
    [
      'ISO parts',
      { date: '$d', iso8601: true },
      { isoWeekYear: 2020, isoWeek: 53, isoDayOfWeek: 5, hour: 14, minute: 30, second: 45, millisecond: 123 },
    ],
    ['iso8601 false', { date: '$d', iso8601: false }, { year: 2021, month: 1, day: 1, hour: 14, minute: 30, second: 45, millisecond: 123 }],
    [
      'in a zone',
      { date: '$d', timezone: '-15:00' },
      { year: 2020, month: 12, day: 31, hour: 23, minute: 30, second: 45, millisecond: 123 },
    ],
    ['a null date gives null', { date: null }, null],
    ['a null zone gives null', { date: '$d', timezone: null }, null],
    ['a null iso8601 gives null', { date: '$d', iso8601: null }, null],
  ];
  for (const [name, arg, expected] of rows) {
    it(name, () => expectExact(evaluateField({ $dateToParts: arg }, DOC), { v: expected }));
  }
});

describe('$dateToParts errors', () => {
  it('not an object: 40524', () => expectCommandError(() => compile({ $dateToParts: '$d' }), 40524, '$dateToParts only supports an object as its argument'));
  it('an unknown field: 40520', () =>
    expectCommandError(() => compile({ $dateToParts: { date: '$d', x: 1 } }), 40520, 'Unrecognized argument to $dateToParts: x'));
  it('no date: 40522', () => expectCommandError(() => compile({ $dateToParts: { timezone: 'UTC' } }), 40522, "Missing 'date' parameter to $dateToParts"));
  it('iso8601 not a bool: 40521', () =>
    expectCommandError(() => evaluateField({ $dateToParts: { date: '$d', iso8601: 1 } }, DOC), 40521, 'iso8601 must evaluate to a bool, found int'));
  it('a value that is no date: 16006', () =>
    expectCommandError(() => evaluateField({ $dateToParts: { date: 1 } }, DOC), 16006, "can't convert from BSON type int to Date"));
});
