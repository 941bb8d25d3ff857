/**
 * `$dateFromParts`: calendar and ISO 8601 forms, parts as expressions of any integral numeric
 * type, carrying out-of-range parts, zones, and mongod 8.2's checks and their order.
 */
import { describe, it } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';
import { compile, evaluateField } from '../helpers.js';

const utc = (...p: [number, number, number?, number?, number?, number?, number?]) => new Date(Date.UTC(...p));

describe('$dateFromParts', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['all calendar parts', { year: 2017, month: 2, day: 8, hour: 12, minute: 10, second: 40, millisecond: 787 }, utc(2017, 1, 8, 12, 10, 40, 787)],
    ['defaults: January 1st at midnight', { year: 2017 }, utc(2017, 0, 1)],
    ['month 14 carries into the next year', { year: 2016, month: 14, day: 1 }, utc(2017, 1, 1)],
    ['month 0 is December of the year before', { year: 2017, month: 0, day: 1 }, utc(2016, 11, 1)],
    ['day 0 is the last day of the month before', { year: 2017, month: 3, day: 0 }, utc(2017, 1, 28)],
    ['hour -1 is the day before', { year: 2017, month: 1, day: 1, hour: -1 }, utc(2016, 11, 31, 23)],
    ['seconds carry without bound', { year: 2017, second: 86_400 }, utc(2017, 0, 2)],
    ['milliseconds carry, negative too', { year: 2017, millisecond: -1 }, utc(2016, 11, 31, 23, 59, 59, 999)],
    ['parts of other integral types', { year: new Long(2017), month: new Double(2), day: Decimal128.fromString('8') }, utc(2017, 1, 8)],
    ['parts from fields', { year: '$y', month: { $add: ['$m', 1] } }, utc(2020, 2, 1)],
    ['ISO parts', { isoWeekYear: 2017, isoWeek: 6, isoDayOfWeek: 3, hour: 12 }, utc(2017, 1, 8, 12)],
    ['ISO defaults: Monday of week 1', { isoWeekYear: 2017 }, utc(2017, 0, 2)],
    ['ISO week 1 may start in December', { isoWeekYear: 2020 }, utc(2019, 11, 30)],
    ['ISO day 0 is the Sunday before', { isoWeekYear: 2020, isoWeek: 1, isoDayOfWeek: 0 }, utc(2019, 11, 29)],
    ['ISO day 8 is the Monday after', { isoWeekYear: 2020, isoWeek: 1, isoDayOfWeek: 8 }, utc(2020, 0, 6)],
    ['in a UTC offset', { year: 2017, month: 2, day: 8, timezone: '+05:30' }, utc(2017, 1, 7, 18, 30)],
    ['in a named zone (winter)', { year: 2020, month: 1, day: 1, hour: 12, timezone: 'America/New_York' }, utc(2020, 0, 1, 17)],
    ['in a named zone (summer)', { year: 2020, month: 7, day: 1, hour: 12, timezone: 'America/New_York' }, utc(2020, 6, 1, 16)],
    ['a null part gives null', { year: 2017, month: null }, null],
    ['a missing part gives null', { year: '$nope' }, null],
    ['a null zone gives null', { year: '$y', timezone: null }, null],
  ];
  for (const [name, arg, expected] of rows) {
    it(name, () => expectExact(evaluateField({ $dateFromParts: arg }, { y: 2020, m: 2 }), { v: expected }));
  }
});

describe('$dateFromParts errors', () => {
  const parseErrors: Array<[string, unknown, number, string]> = [
    ['not an object', 2017, 40519, '$dateFromParts only supports an object as its argument'],
    ['an unknown field', { year: 2017, foo: 1 }, 40518, 'Unrecognized argument to $dateFromParts: foo'],
    ['neither year nor isoWeekYear', { month: 1 }, 40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present"],
    ['year with ISO parts', { year: 2017, isoWeek: 1 }, 40489, '$dateFromParts does not allow mixing natural dates with ISO dates'],
    ['isoWeekYear with calendar parts', { isoWeekYear: 2017, month: 1 }, 40525, '$dateFromParts does not allow mixing ISO dates with natural dates'],
  ];
  for (const [name, arg, code, message] of parseErrors) {
    it(`${name}: ${code}`, () => expectCommandError(() => compile({ $dateFromParts: arg }), code, message));
  }
  const runErrors: Array<[string, unknown, number, string]> = [
    ['a fractional part', { year: 2017, month: 1.5 }, 40515, "'month' must evaluate to an integer, found double with value 1.5"],
    ['a string part', { year: '2017' }, 40515, '\'year\' must evaluate to an integer, found string with value "2017"'],
    ['a month past 32767', { year: 2017, month: 32_768 }, 31034, "'month' must evaluate to a value in the range [-32768, 32767]; value 32768 is not in range"],
    ['an hour below -32768', { year: 2017, hour: -32_769 }, 31034, "'hour' must evaluate to a value in the range [-32768, 32767]; value -32769 is not in range"],
    ['year 0', { year: 0 }, 40523, "'year' must evaluate to an integer in the range 1 to 9999, found 0"],
    ['year 10000', { year: 10_000 }, 40523, "'year' must evaluate to an integer in the range 1 to 9999, found 10000"],
    ['isoWeekYear 10000', { isoWeekYear: 10_000 }, 31095, "'isoWeekYear' must evaluate to an integer in the range 1 to 9999, found 10000"],
    ['the time parts are checked before the year', { year: 0, hour: 'x' }, 40515, '\'hour\' must evaluate to an integer, found string with value "x"'],
  ];
  for (const [name, arg, code, message] of runErrors) {
    it(`${name}: ${code}`, () => expectCommandError(() => evaluateField({ $dateFromParts: arg }), code, message));
  }
  it('a null part before a bad one gives null', () => expectExact(evaluateField({ $dateFromParts: { year: 2017, hour: null, minute: 'x' } }), { v: null }));
});
