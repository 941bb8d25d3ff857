/**
 * The date-part operators ($year, $month, $dayOfMonth, $hour, $minute, $second, $millisecond,
 * $dayOfWeek, $dayOfYear, $week, $isoWeek, $isoDayOfWeek, $isoWeekYear): their three argument
 * shapes, zones, the types they read as dates, their result types, and mongod 8.2's errors.
 */
import { describe, it } from 'vitest';
import { Long, ObjectId, Timestamp } from '../../../../src/bson/library.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';
import { compile, evaluateField } from '../helpers.js';

// Saturday 2024-06-15T14:30:45.123Z: day 167 of a leap year, ISO 2024-W24-6, week 23 from Sunday.
const D = new Date(Date.UTC(2024, 5, 15, 14, 30, 45, 123));

describe('date parts of a date in UTC', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['$year', { $year: '$d' }, 2024],
    ['$month', { $month: '$d' }, 6],
    ['$dayOfMonth', { $dayOfMonth: '$d' }, 15],
    ['$hour', { $hour: '$d' }, 14],
    ['$minute', { $minute: '$d' }, 30],
    ['$second', { $second: '$d' }, 45],
    ['$millisecond', { $millisecond: '$d' }, 123],
    ['$dayOfWeek (Saturday is 7)', { $dayOfWeek: '$d' }, 7],
    ['$dayOfYear', { $dayOfYear: '$d' }, 167],
    ['$week (weeks start on Sunday)', { $week: '$d' }, 23],
    ['$isoWeek', { $isoWeek: '$d' }, 24],
    ['$isoDayOfWeek (Saturday is 6)', { $isoDayOfWeek: '$d' }, 6],
    ['$isoWeekYear is an Int64', { $isoWeekYear: '$d' }, Long.fromNumber(2024)],
    ['the array form', { $year: ['$d'] }, 2024],
    ['the document form', { $month: { date: '$d' } }, 6],
    ['an operator as the date', { $dayOfMonth: { $add: ['$d', 86_400_000] } }, 16],
  ];
  for (const [name, expr, expected] of rows) {
    it(name, () => expectExact(evaluateField(expr, { d: D }), { v: expected }));
  }
});

describe('calendar edges', () => {
  const rows: Array<[string, unknown, Date, unknown]> = [
    ['week 0 before the first Sunday (Sat 2022-01-01)', { $week: '$d' }, new Date(Date.UTC(2022, 0, 1)), 0],
    ['week 1 from the first Sunday (Sun 2023-01-01)', { $week: '$d' }, new Date(Date.UTC(2023, 0, 1)), 1],
    ['ISO year of Fri 2021-01-01 is 2020', { $isoWeekYear: '$d' }, new Date(Date.UTC(2021, 0, 1)), Long.fromNumber(2020)],
    ['ISO week of Fri 2021-01-01 is 53', { $isoWeek: '$d' }, new Date(Date.UTC(2021, 0, 1)), 53],
    ['Sunday is ISO day 7', { $isoDayOfWeek: '$d' }, new Date(Date.UTC(2024, 5, 16)), 7],
    ['Sunday is day 1', { $dayOfWeek: '$d' }, new Date(Date.UTC(2024, 5, 16)), 1],
    ['December 31st of a leap year is day 366', { $dayOfYear: '$d' }, new Date(Date.UTC(2024, 11, 31)), 366],
    ['a millisecond before the epoch', { $millisecond: '$d' }, new Date(-1), 999],
    ['a year before the epoch', { $year: '$d' }, new Date(-1), 1969],
  ];
  for (const [name, expr, d, expected] of rows) {
    it(name, () => expectExact(evaluateField(expr, { d }), { v: expected }));
  }
});

describe('zones', () => {
  const early = new Date(Date.UTC(2024, 0, 1, 3, 0, 0));
  const rows: Array<[string, unknown, unknown]> = [
    ['New York is still in 2023', { $year: { date: '$e', timezone: 'America/New_York' } }, 2023],
    ['and on December 31st', { $dayOfMonth: { date: '$e', timezone: 'America/New_York' } }, 31],
    ['at 22:00', { $hour: { date: '$e', timezone: 'America/New_York' } }, 22],
    ['a UTC offset', { $hour: { date: '$d', timezone: '+05:30' } }, 20],
    ['its minutes', { $minute: { date: '$d', timezone: '+05:30' } }, 0],
    ['an offset without a colon', { $hour: { date: '$d', timezone: '-0500' } }, 9],
    ['an offset of hours alone', { $hour: { date: '$d', timezone: '+03' } }, 17],
    ['the zone from a field', { $hour: { date: '$d', timezone: '$tz' } }, 23],
    ['a null zone gives null', { $hour: { date: '$d', timezone: null } }, null],
    ['a missing zone field gives null', { $hour: { date: '$d', timezone: '$nope' } }, null],
  ];
  for (const [name, expr, expected] of rows) {
    it(name, () => expectExact(evaluateField(expr, { d: D, e: early, tz: 'Asia/Tokyo' }), { v: expected }));
  }
});

describe('what is read as a date', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['a Timestamp, by its seconds', new Timestamp({ t: 1_718_461_845, i: 7 }), 14],
    ['a Timestamp past 2^31 seconds (unsigned)', new Timestamp({ t: 4_294_967_295, i: 1 }), 6],
    ['an ObjectId, by its creation time', ObjectId.createFromTime(1_718_461_845), 14],
    ['an ObjectId past 2^31 seconds reads them signed (1969-12-31T23:59:59Z)', new ObjectId('ffffffff0000000000000000'), 23],
    ['null gives null', null, null],
  ];
  for (const [name, d, expected] of rows) {
    it(name, () => expectExact(evaluateField({ $hour: '$d' }, { d }), { v: expected }));
  }
  it('a missing date gives null', () => expectExact(evaluateField({ $year: '$nope' }), { v: null }));
  it('a missing date gives null even with a zone', () => expectExact(evaluateField({ $year: { date: '$nope', timezone: 'UTC' } }), { v: null }));
});

describe('errors', () => {
  it('a string is no date: 16006', () =>
    expectCommandError(() => evaluateField({ $year: '$d' }, { d: '2024-01-01' }), 16006, "can't convert from BSON type string to Date"));
  it('nor is a number', () => expectCommandError(() => evaluateField({ $week: '$d' }, { d: 5 }), 16006, "can't convert from BSON type int to Date"));
  it('nor an array holding a date', () =>
    expectCommandError(() => evaluateField({ $month: '$d' }, { d: [D] }), 16006, "can't convert from BSON type array to Date"));
  it('an array of two: 40536', () =>
    expectCommandError(() => compile({ $year: ['$d', '$d'] }), 40536, '$year accepts exactly one argument if given an array, but was given 2'));
  it('an empty array: 40536', () =>
    expectCommandError(() => compile({ $isoWeek: [] }), 40536, '$isoWeek accepts exactly one argument if given an array, but was given 0'));
  it('an unknown option: 40535', () =>
    expectCommandError(() => compile({ $hour: { date: '$d', foo: 1 } }), 40535, 'unrecognized option to $hour: "foo"'));
  it('no date: 40539', () =>
    expectCommandError(
      () => compile({ $minute: { timezone: 'UTC' } }),
      40539,
      'missing \'date\' argument to $minute, provided: $minute: { timezone: "UTC" }',
    ));
  it('an empty document: 40539', () =>
    expectCommandError(() => compile({ $second: {} }), 40539, "missing 'date' argument to $second, provided: $second: {}"));
  it('a zone that is no string: 40517', () =>
    expectCommandError(() => evaluateField({ $year: { date: '$d', timezone: '$tz' } }, { d: D, tz: 5 }), 40517, 'timezone must evaluate to a string, found int'));
  it('an unknown zone: 40485, at parse time when constant', () =>
    expectCommandError(() => compile({ $year: { date: '$d', timezone: 'Not/A_Zone' } }), 40485, 'unrecognized time zone identifier: "Not/A_Zone"'));
  it('zone names are case-sensitive', () =>
    expectCommandError(() => compile({ $year: { date: '$d', timezone: 'america/new_york' } }), 40485, 'unrecognized time zone identifier: "america/new_york"'));
});
