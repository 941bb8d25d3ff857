/**
 * `$dateAdd` and `$dateSubtract` (mongod 8.2 ExpressionDateAdd / ExpressionDateSubtract,
 * date_time_support.cpp `dateAdd`): results with their BSON type (always a Date), null
 * propagation, and the codes and messages of the argument errors.
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long, ObjectId, Timestamp } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, parseErrorRows, valueRowsWithDoc } from '../helpers.js';
import { utc } from './utc.js';

const add = (startDate: unknown, unit: unknown, amount: unknown, timezone?: unknown) => ({
  $dateAdd: timezone === undefined ? { startDate, unit, amount } : { startDate, unit, amount, timezone },
});
const sub = (startDate: unknown, unit: unknown, amount: unknown, timezone?: unknown) => ({
  $dateSubtract: timezone === undefined ? { startDate, unit, amount } : { startDate, unit, amount, timezone },
});

describe('$dateAdd: units', () => {
  valueRowsWithDoc([
    ['a day', add('$d', 'day', 1), { d: utc(2000, 1, 1, 12) }, utc(2000, 1, 2, 12)],
    ['a negative number of days', add('$d', 'day', -1), { d: utc(1970, 1, 1) }, utc(1969, 12, 31)],
    ['two weeks', add('$d', 'week', 2), { d: utc(2021, 1, 1) }, utc(2021, 1, 15)],
    ['hours carry into the next day', add('$d', 'hour', 25), { d: utc(2021, 1, 1) }, utc(2021, 1, 2, 1)],
    ['minutes', add('$d', 'minute', 90), { d: utc(2021, 1, 1) }, utc(2021, 1, 1, 1, 30)],
    ['seconds', add('$d', 'second', 3600), { d: utc(2021, 1, 1) }, utc(2021, 1, 1, 1)],
    ['milliseconds', add('$d', 'millisecond', 500), { d: utc(2021, 1, 1) }, utc(2021, 1, 1, 0, 0, 0, 500)],
    ['a month keeps the day of the month', add('$d', 'month', 1), { d: utc(2021, 1, 15, 8) }, utc(2021, 2, 15, 8)],
    ['Jan 31 + 1 month is Feb 28', add('$d', 'month', 1), { d: utc(2021, 1, 31) }, utc(2021, 2, 28)],
    ['Jan 31 + 1 month in a leap year is Feb 29', add('$d', 'month', 1), { d: utc(2020, 1, 31) }, utc(2020, 2, 29)],
    ['Mar 31 + 1 month is Apr 30 (the manual)', add('$d', 'month', 1), { d: utc(2021, 3, 31, 12, 10, 5) }, utc(2021, 4, 30, 12, 10, 5)],
    ['months across a year', add('$d', 'month', 14), { d: utc(2020, 11, 30) }, utc(2022, 1, 30)],
    ['negative months across a year', add('$d', 'month', -13), { d: utc(2021, 1, 31) }, utc(2019, 12, 31)],
    ['a quarter clamps like three months', add('$d', 'quarter', 1), { d: utc(2021, 1, 31) }, utc(2021, 4, 30)],
    ['Feb 29 + 1 year is Feb 28', add('$d', 'year', 1), { d: utc(2020, 2, 29) }, utc(2021, 2, 28)],
    ['Feb 29 + 4 years is Feb 29', add('$d', 'year', 4), { d: utc(2020, 2, 29) }, utc(2024, 2, 29)],
    ['before the epoch', add('$d', 'year', 10), { d: utc(1900, 1, 1, 12) }, utc(1910, 1, 1, 12)],
    ['zero changes nothing', add('$d', 'month', 0), { d: utc(2021, 1, 31, 1, 2, 3, 4) }, utc(2021, 1, 31, 1, 2, 3, 4)],
  ]);
});

describe('$dateAdd: amount and startDate types', () => {
  valueRowsWithDoc([
    ['an Int64 amount', add('$d', 'day', Long.fromNumber(2)), { d: utc(2021, 1, 1) }, utc(2021, 1, 3)],
    ['an integral double amount', add('$d', 'day', new Double(2)), { d: utc(2021, 1, 1) }, utc(2021, 1, 3)],
    ['an integral Decimal128 amount', add('$d', 'day', Decimal128.fromString('2.000')), { d: utc(2021, 1, 1) }, utc(2021, 1, 3)],
    ['a Timestamp start date (its seconds)', add('$d', 'second', 1), { d: new Timestamp({ t: 946728000, i: 5 }) }, utc(2000, 1, 1, 12, 0, 1)],
    ['a Timestamp past 2038 (unsigned seconds)', add('$d', 'second', 1), { d: new Timestamp({ t: 4294967295, i: 1 }) }, utc(2106, 2, 7, 6, 28, 16)],
    ['an ObjectId start date (its creation second)', add('$d', 'day', 1), { d: new ObjectId('000000000000000000000000') }, utc(1970, 1, 2)],
    ['an ObjectId with the high bit set reads before 1970', add('$d', 'day', 1), { d: new ObjectId('800000000000000000000000') }, utc(1901, 12, 14, 20, 45, 52)],
    ['all constants', add(utc(2021, 1, 31), 'month', 1), {}, utc(2021, 2, 28)],
  ]);
});

describe('$dateAdd: time zones', () => {
  valueRowsWithDoc([
    ['an hour across the New York fall-back is elapsed time', add('$d', 'hour', 1, 'America/New_York'), { d: utc(2020, 11, 1, 5, 50, 2) }, utc(2020, 11, 1, 6, 50, 2)],
    ['a day across the New York spring-forward keeps the wall clock', add('$d', 'day', 1, 'America/New_York'), { d: utc(2020, 3, 7, 12) }, utc(2020, 3, 8, 11)],
    ['a day across the Paris fall-back keeps the wall clock', add('$d', 'day', 1, 'Europe/Paris'), { d: utc(2020, 10, 24, 10) }, utc(2020, 10, 25, 11)],
    ['a month from the local Feb 1 in +05:30', add('$d', 'month', 1, '+05:30'), { d: utc(2021, 1, 31, 20) }, utc(2021, 2, 28, 20)],
    ['the local Jan 31 in +05:00 clamps to the local Feb 28', add('$d', 'month', 1, '+05:00'), { d: utc(2021, 1, 30, 20) }, utc(2021, 2, 27, 20)],
    ['UTC by name', add('$d', 'month', 1, 'UTC'), { d: utc(2021, 1, 31) }, utc(2021, 2, 28)],
    ['a day into the New York spring-forward gap moves forward by the gap', add('$d', 'day', 1, 'America/New_York'), { d: utc(2020, 3, 7, 7, 30) }, utc(2020, 3, 8, 7, 30)],
    ['a day into the New York fall-back overlap from daylight time keeps daylight time', add('$d', 'day', 1, 'America/New_York'), { d: utc(2020, 10, 31, 5, 30) }, utc(2020, 11, 1, 5, 30)],
    ['months into the New York fall-back overlap from standard time keep standard time', add('$d', 'month', 10, 'America/New_York'), { d: utc(2020, 1, 1, 6, 30) }, utc(2020, 11, 1, 6, 30)],
    ['a timezone from the document', add('$d', 'day', 1, '$tz'), { d: utc(2020, 3, 7, 12), tz: 'America/New_York' }, utc(2020, 3, 8, 11)],
  ]);
});

describe('$dateAdd and $dateSubtract: null and missing', () => {
  valueRowsWithDoc([
    ['a null startDate', add('$d', 'day', 1), { d: null }, null],
    ['a missing startDate', add('$nope', 'day', 1), {}, null],
    ['a null unit', add('$d', null, 1), { d: utc(2021, 1, 1) }, null],
    ['a missing unit', add('$d', '$nope', 1), { d: utc(2021, 1, 1) }, null],
    ['a null amount', add('$d', 'day', null), { d: utc(2021, 1, 1) }, null],
    ['a missing timezone', add('$d', 'day', 1, '$nope'), { d: utc(2021, 1, 1) }, null],
    ['a null startDate before a bad amount', add('$d', 'day', 1.5), { d: null }, null],
    ['$dateSubtract of a null startDate', sub('$d', 'day', 1), { d: null }, null],
  ]);
});

describe('$dateSubtract', () => {
  valueRowsWithDoc([
    ['a day', sub('$d', 'day', 1), { d: utc(2000, 1, 2, 12) }, utc(2000, 1, 1, 12)],
    ['Mar 31 - 1 month is Feb 28', sub('$d', 'month', 1), { d: utc(2021, 3, 31) }, utc(2021, 2, 28)],
    ['a negative amount adds', sub('$d', 'week', -1), { d: utc(2021, 1, 1) }, utc(2021, 1, 8)],
    ['milliseconds', sub('$d', 'millisecond', 1), { d: utc(1970, 1, 1) }, new Date(-1)],
    ['a year in a zone', sub('$d', 'year', 1, 'Europe/Paris'), { d: utc(2021, 6, 30, 22) }, utc(2020, 6, 30, 22)],
  ]);
});

describe('$dateAdd and $dateSubtract: errors', () => {
  parseErrorRows([
    ['parse: not an object', { $dateAdd: 1 }, 5166400, '$dateAdd expects an object as its argument'],
    ['parse: an array', { $dateSubtract: [1, 2] }, 5166400, '$dateSubtract expects an object as its argument'],
    [
      'parse: an unknown argument',
      { $dateAdd: { startDate: '$d', unit: 'day', amount: 1, foo: 1 } },
      5166401,
      'Unrecognized argument to $dateAdd: foo. Expected arguments are startDate, unit, amount, and optionally timezone.',
    ],
    ['parse: no amount', { $dateAdd: { startDate: '$d', unit: 'day' } }, 5166402, '$dateAdd requires startDate, unit, and amount to be present'],
    ['parse: an empty object', { $dateSubtract: {} }, 5166402, '$dateSubtract requires startDate, unit, and amount to be present'],
    ['parse: a constant unknown unit, before any document', add('$d', 'days', 1), 9, "$dateAdd parameter 'unit' value parsing failed :: caused by :: unknown time unit value: days"],
    ['parse: a constant unit of the wrong case', sub('$d', 'Day', 1), 9, "$dateSubtract parameter 'unit' value parsing failed :: caused by :: unknown time unit value: Day"],
    ['parse: a constant non-string unit', add('$d', 1, 1), 5439013, "$dateAdd requires 'unit' to be a string, but got int"],
    ['parse: a constant unknown time zone', add('$d', 'day', 1, 'Invalid/Zone'), 40485, 'unrecognized time zone identifier: "Invalid/Zone"'],
    ['parse: all constants with a bad start date', add('2021-01-01', 'day', 1), 5166403, '$dateAdd requires startDate to be convertible to a date'],
  ]);
  errorRowsWithDoc([
    ['a string startDate', add('$d', 'day', 1), { d: '2021-01-01' }, 5166403, '$dateAdd requires startDate to be convertible to a date'],
    ['a number startDate', sub('$d', 'day', 1), { d: 12345 }, 5166403, '$dateSubtract requires startDate to be convertible to a date'],
    ['an array of dates', add('$d', 'day', 1), { d: [utc(2021, 1, 1)] }, 5166403, '$dateAdd requires startDate to be convertible to a date'],
    ['a fractional amount', add('$d', 'day', 1.5), { d: utc(2021, 1, 1) }, 5166405, '$dateAdd expects integer amount of time units'],
    ['a string amount', add('$d', 'day', '$a'), { d: utc(2021, 1, 1), a: '5' }, 5166405, '$dateAdd expects integer amount of time units'],
    ['a NaN amount', sub('$d', 'day', '$a'), { d: utc(2021, 1, 1), a: NaN }, 5166405, '$dateSubtract expects integer amount of time units'],
    ['a fractional Decimal128 amount', add('$d', 'day', Decimal128.fromString('1.5')), { d: utc(2021, 1, 1) }, 5166405, '$dateAdd expects integer amount of time units'],
    ['a unit from the document', add('$d', '$u', 1), { d: utc(2021, 1, 1), u: 'fortnight' }, 9, "$dateAdd parameter 'unit' value parsing failed :: caused by :: unknown time unit value: fortnight"],
    ['a non-string unit from the document', add('$d', '$u', 1), { d: utc(2021, 1, 1), u: true }, 5439013, "$dateAdd requires 'unit' to be a string, but got bool"],
    ['a time zone of the wrong case', add('$d', 'day', 1, '$tz'), { d: utc(2021, 1, 1), tz: 'america/new_york' }, 40485, 'unrecognized time zone identifier: "america/new_york"'],
    ['a non-string time zone', add('$d', 'day', 1, '$tz'), { d: utc(2021, 1, 1), tz: 5 }, 40517, 'timezone must evaluate to a string, found int'],
    [
      'too many months',
      add('$d', 'month', Long.fromString('-30000000000')),
      { d: utc(2020, 12, 31) },
      5976500,
      "invalid dateAdd 'amount' parameter value: -30000000000 month",
    ],
    [
      '$dateSubtract reports the negated amount',
      sub('$d', 'month', Long.fromString('30000000000')),
      { d: utc(2020, 12, 31) },
      5976500,
      "invalid dateAdd 'amount' parameter value: -30000000000 month",
    ],
    [
      '$dateSubtract of the smallest Int64',
      sub('$d', 'day', Long.fromString('-9223372036854775808')),
      { d: utc(2020, 12, 31) },
      6045000,
      "invalid $dateSubtract 'amount' parameter value: -9223372036854775808",
    ],
    ['a result past the end of the Int64 milliseconds', add('$d', 'year', 584942417), { d: utc(2000, 1, 1) }, 5166406, 'dateAdd overflowed'],
  ]);
});
