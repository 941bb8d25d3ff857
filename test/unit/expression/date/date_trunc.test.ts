/**
 * `$dateTrunc` (mongod 8.2 ExpressionDateTrunc, date_time_support.cpp `truncateDate`): bins
 * counted from 2000-01-01 in the zone (weeks from the first `startOfWeek` on or after it), binSize,
 * time zones, null propagation, and the argument errors with their codes and messages.
 */
import { describe } from 'vitest';
import { Decimal128, Long, ObjectId, Timestamp } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, parseErrorRows, valueRowsWithDoc } from '../helpers.js';
import { utc } from './utc.js';

const trunc = (date: unknown, unit: unknown, more: Record<string, unknown> = {}) => ({ $dateTrunc: { date, unit, ...more } });
const D = utc(2021, 3, 20, 11, 30, 5, 123);

describe('$dateTrunc: units and bins', () => {
  valueRowsWithDoc([
    ['a Sunday week by default (the manual)', trunc('$d', 'week'), { d: D }, utc(2021, 3, 14)],
    ['a Monday week', trunc('$d', 'week', { startOfWeek: 'monday' }), { d: D }, utc(2021, 3, 15)],
    ['a Friday week, abbreviated and capitalised', trunc('$d', 'week', { startOfWeek: 'Fri' }), { d: D }, utc(2021, 3, 19)],
    ['a Saturday start of week on a Saturday', trunc('$d', 'week', { startOfWeek: 'saturday' }), { d: D }, utc(2021, 3, 20)],
    ['two-week bins from the first Sunday of 2000', trunc('$d', 'week', { binSize: 2 }), { d: D }, utc(2021, 3, 14)],
    ['a day', trunc('$d', 'day'), { d: D }, utc(2021, 3, 20)],
    ['two-day bins from 2000-01-01', trunc('$d', 'day', { binSize: 2 }), { d: D }, utc(2021, 3, 19)],
    ['a month', trunc('$d', 'month'), { d: D }, utc(2021, 3, 1)],
    ['six-month bins', trunc('$d', 'month', { binSize: 6 }), { d: D }, utc(2021, 1, 1)],
    ['a quarter', trunc('$d', 'quarter'), { d: utc(2021, 8, 15) }, utc(2021, 7, 1)],
    ['a year', trunc('$d', 'year'), { d: D }, utc(2021, 1, 1)],
    ['five-year bins', trunc('$d', 'year', { binSize: 5 }), { d: D }, utc(2020, 1, 1)],
    ['years before the reference point', trunc('$d', 'year', { binSize: 3 }), { d: utc(1999, 6, 1) }, utc(1997, 1, 1)],
    ['an hour', trunc('$d', 'hour'), { d: D }, utc(2021, 3, 20, 11)],
    ['two-hour bins', trunc('$d', 'hour', { binSize: 2 }), { d: D }, utc(2021, 3, 20, 10)],
    ['fifteen-minute bins', trunc('$d', 'minute', { binSize: 15 }), { d: D }, utc(2021, 3, 20, 11, 30)],
    ['a second', trunc('$d', 'second'), { d: D }, utc(2021, 3, 20, 11, 30, 5)],
    ['100-millisecond bins', trunc('$d', 'millisecond', { binSize: 100 }), { d: D }, utc(2021, 3, 20, 11, 30, 5, 100)],
    ['before the epoch', trunc('$d', 'day'), { d: new Date(-1) }, utc(1969, 12, 31)],
    ['an Int64 binSize', trunc('$d', 'day', { binSize: Long.fromNumber(2) }), { d: D }, utc(2021, 3, 19)],
    ['an integral Decimal128 binSize', trunc('$d', 'month', { binSize: Decimal128.fromString('6') }), { d: D }, utc(2021, 1, 1)],
    ['a binSize from the document', trunc('$d', 'hour', { binSize: '$b' }), { d: D, b: 2 }, utc(2021, 3, 20, 10)],
    ['a Timestamp', trunc('$d', 'day'), { d: new Timestamp({ t: 1616239805, i: 1 }) }, utc(2021, 3, 20)],
    ['an ObjectId', trunc('$d', 'year'), { d: new ObjectId('6055dc3d0000000000000000') }, utc(2021, 1, 1)],
    ['startOfWeek has no effect on a month', trunc('$d', 'month', { startOfWeek: 'friday' }), { d: D }, utc(2021, 3, 1)],
  ]);
});

describe('$dateTrunc: time zones', () => {
  valueRowsWithDoc([
    ['the local midnight at +05:30', trunc('$d', 'day', { timezone: '+05:30' }), { d: utc(2021, 3, 20, 20) }, utc(2021, 3, 20, 18, 30)],
    ['hours on the +05:30 clock', trunc('$d', 'hour', { timezone: '+05:30' }), { d: utc(2021, 3, 20, 11, 45) }, utc(2021, 3, 20, 11, 30)],
    ['the New York midnight before its spring-forward', trunc('$d', 'day', { timezone: 'America/New_York' }), { d: utc(2021, 3, 14, 12) }, utc(2021, 3, 14, 5)],
    ['a month in Tokyo', trunc('$d', 'month', { timezone: 'Asia/Tokyo' }), { d: utc(2021, 3, 31, 16) }, utc(2021, 3, 31, 15)],
    ['a time zone from the document', trunc('$d', 'day', { timezone: '$tz' }), { d: utc(2021, 3, 20, 20), tz: '+05:30' }, utc(2021, 3, 20, 18, 30)],
  ]);
});

describe('$dateTrunc: null and missing', () => {
  valueRowsWithDoc([
    ['a null date', trunc('$d', 'day'), { d: null }, null],
    ['a missing date', trunc('$nope', 'day'), {}, null],
    ['a null unit', trunc('$d', null), { d: D }, null],
    ['a missing binSize', trunc('$d', 'hour', { binSize: '$b' }), { d: D }, null],
    ['a null timezone', trunc('$d', 'day', { timezone: null }), { d: D }, null],
    ['a null startOfWeek with a week unit', trunc(D, 'week', { startOfWeek: null }), {}, null],
    ['a null startOfWeek of a constant expression is ignored for a day unit', trunc(D, 'day', { startOfWeek: null }), {}, utc(2021, 3, 20)],
    ['a null startOfWeek makes null when the date is read per document', trunc('$d', 'day', { startOfWeek: null }), { d: D }, null],
    ['a null date before a bad binSize', trunc('$d', 'day', { binSize: '$b' }), { d: null, b: 0 }, null],
  ]);
});

describe('$dateTrunc: errors', () => {
  parseErrorRows([
    ['parse: a number', { $dateTrunc: 1 }, 5439007, '$dateTrunc only supports an object as its argument'],
    [
      'parse: an unknown argument',
      { $dateTrunc: { date: '$d', unit: 'day', foo: 1 } },
      5439008,
      'Unrecognized argument to $dateTrunc: foo. Expected arguments are date, unit, and optionally, binSize, timezone, startOfWeek',
    ],
    ['parse: no date', { $dateTrunc: { unit: 'day' } }, 5439009, "Missing 'date' parameter to $dateTrunc"],
    ['parse: no unit', { $dateTrunc: { date: '$d' } }, 5439010, "Missing 'unit' parameter to $dateTrunc"],
    ['parse: a constant unknown unit', trunc('$d', 'weeks'), 9, "$dateTrunc parameter 'unit' value parsing failed :: caused by :: unknown time unit value: weeks"],
    ['parse: a constant non-string unit', trunc('$d', ['day']), 5439013, "$dateTrunc requires 'unit' to be a string, but got array"],
    ['parse: a fractional binSize', trunc('$d', 'day', { binSize: 0.5 }), 5439017, "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '0.5' of type double"],
    ['parse: a string binSize', trunc('$d', 'day', { binSize: '2' }), 5439017, "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '\"2\"' of type string"],
    ['parse: a zero binSize', trunc('$d', 'day', { binSize: 0 }), 5439018, "$dateTrunc requires 'binSize' to be greater than 0, but got value 0"],
    ['parse: a negative binSize', trunc('$d', 'day', { binSize: -1 }), 5439018, "$dateTrunc requires 'binSize' to be greater than 0, but got value -1"],
    ['parse: a constant unknown startOfWeek', trunc('$d', 'week', { startOfWeek: 'notaday' }), 5439016, "$dateTrunc parameter 'startOfWeek' value cannot be recognized as a day of a week: notaday"],
    ['parse: an empty startOfWeek', trunc('$d', 'week', { startOfWeek: '' }), 5439016, "$dateTrunc parameter 'startOfWeek' value cannot be recognized as a day of a week: "],
    ['parse: a constant non-string startOfWeek', trunc('$d', 'week', { startOfWeek: true }), 5439015, "$dateTrunc requires 'startOfWeek' to be a string, but got bool"],
    [
      'parse: a constant unknown time zone',
      trunc('$d', 'day', { timezone: 'Invalid/Zone' }),
      40485,
      '$dateTrunc parameter \'timezone\' value parsing failed :: caused by :: unrecognized time zone identifier: "Invalid/Zone"',
    ],
    ['parse: all constants with a bad date', trunc(false, 'day'), 5166307, "$dateTrunc requires 'date' to be a date, but got bool"],
  ]);
  errorRowsWithDoc([
    ['a boolean date', trunc('$d', 'day'), { d: false }, 5166307, "$dateTrunc requires 'date' to be a date, but got bool"],
    ['an array of dates', trunc('$d', 'day'), { d: [D] }, 5166307, "$dateTrunc requires 'date' to be a date, but got array"],
    ['a binSize from the document', trunc('$d', 'day', { binSize: '$b' }), { d: D, b: 1.5 }, 5439017, "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '1.5' of type double"],
    ['a binSize too large for calendar units', trunc('$d', 'year', { binSize: Long.fromString('100000000001') }), { d: D }, 5439006, 'dateTrunc unsupported binSize value'],
    ['a binSize whose milliseconds overflow', trunc('$d', 'hour', { binSize: Long.fromString('2562047788016999') }), { d: D }, 5439002, 'dateTrunc overflowed'],
    ['a startOfWeek from the document', trunc('$d', 'week', { startOfWeek: '$w' }), { d: D, w: 'someday' }, 5439016, "$dateTrunc parameter 'startOfWeek' value cannot be recognized as a day of a week: someday"],
    [
      'a time zone from the document',
      trunc('$d', 'day', { timezone: '$tz' }),
      { d: D, tz: 'AMERICA/NEW_YORK' },
      40485,
      '$dateTrunc parameter \'timezone\' value parsing failed :: caused by :: unrecognized time zone identifier: "AMERICA/NEW_YORK"',
    ],
  ]);
});
