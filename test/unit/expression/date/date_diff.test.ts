/**
 * `$dateDiff` (mongod 8.2 ExpressionDateDiff, date_time_support.cpp `dateDiff`): boundaries
 * crossed per unit as an Int64, time zones and `startOfWeek`, null propagation, and the argument
 * errors with their codes and messages.
 */
import { describe } from 'vitest';
import { Long, ObjectId, Timestamp } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, parseErrorRows, valueRowsWithDoc } from '../helpers.js';
import { utc } from './utc.js';

const diff = (startDate: unknown, endDate: unknown, unit: unknown, more: Record<string, unknown> = {}) => ({
  $dateDiff: { startDate, endDate, unit, ...more },
});
const long = (n: number) => Long.fromNumber(n);

describe('$dateDiff: units', () => {
  valueRowsWithDoc([
    ['days in a leap winter (the manual)', diff('$s', '$e', 'day'), { s: utc(2020, 1, 1), e: utc(2020, 3, 1) }, long(60)],
    ['one minute over a year end is a year', diff('$s', '$e', 'year'), { s: utc(2020, 12, 31, 23, 59), e: utc(2021, 1, 1) }, long(1)],
    ['the same year is zero', diff('$s', '$e', 'year'), { s: utc(2024, 1, 1), e: utc(2024, 12, 31, 23, 59, 59) }, long(0)],
    ['Jan 31 to Feb 1 is a month', diff('$s', '$e', 'month'), { s: utc(2021, 1, 31), e: utc(2021, 2, 1) }, long(1)],
    ['a month boundary backwards', diff('$s', '$e', 'month'), { s: utc(2024, 6, 1), e: utc(2024, 1, 1) }, long(-5)],
    ['Mar 31 to Apr 1 is a quarter', diff('$s', '$e', 'quarter'), { s: utc(2021, 3, 31), e: utc(2021, 4, 1) }, long(1)],
    ['quarters across years', diff('$s', '$e', 'quarter'), { s: utc(2020, 11, 15), e: utc(2022, 2, 1) }, long(5)],
    ['Saturday to Sunday crosses a Sunday week', diff('$s', '$e', 'week'), { s: utc(2024, 1, 6), e: utc(2024, 1, 7) }, long(1)],
    ['Sunday to Saturday does not', diff('$s', '$e', 'week'), { s: utc(2024, 1, 7), e: utc(2024, 1, 13) }, long(0)],
    ['a Monday week', diff('$s', '$e', 'week', { startOfWeek: 'monday' }), { s: utc(2024, 1, 6), e: utc(2024, 1, 7) }, long(0)],
    ['a Monday week, case-insensitive and abbreviated', diff('$s', '$e', 'week', { startOfWeek: 'MON' }), { s: utc(2024, 1, 7), e: utc(2024, 1, 8) }, long(1)],
    ['weeks backwards', diff('$s', '$e', 'week'), { s: utc(2024, 1, 31), e: utc(2024, 1, 1) }, long(-4)],
    ['59 minutes inside an hour is no hour', diff('$s', '$e', 'hour'), { s: utc(2021, 1, 1), e: utc(2021, 1, 1, 0, 59) }, long(0)],
    ['a minute over an hour boundary is an hour', diff('$s', '$e', 'hour'), { s: utc(2021, 1, 1, 0, 59), e: utc(2021, 1, 1, 1) }, long(1)],
    ['minutes', diff('$s', '$e', 'minute'), { s: utc(2021, 1, 1, 0, 0, 59), e: utc(2021, 1, 1, 0, 2) }, long(2)],
    ['seconds ignore milliseconds', diff('$s', '$e', 'second'), { s: utc(2021, 1, 1, 0, 0, 0, 999), e: utc(2021, 1, 1, 0, 0, 1) }, long(1)],
    ['milliseconds', diff('$s', '$e', 'millisecond'), { s: utc(2021, 1, 1), e: utc(2021, 1, 1, 0, 0, 1, 500) }, long(1500)],
    ['negative milliseconds', diff('$s', '$e', 'millisecond'), { s: utc(1970, 1, 1), e: new Date(-1) }, long(-1)],
    ['the same instant', diff('$s', '$s', 'day'), { s: utc(2021, 1, 1) }, long(0)],
    ['constants', diff(utc(2024, 1, 1), utc(2024, 6, 1), 'month'), {}, long(5)],
  ]);
});

describe('$dateDiff: date-like values and time zones', () => {
  valueRowsWithDoc([
    ['ObjectIds', diff('$s', '$e', 'day'), { s: new ObjectId('65920080' + '0000000000000000'), e: new ObjectId('65998980' + '0000000000000000') }, long(5)],
    ['a Timestamp', diff('$s', '$e', 'hour'), { s: new Timestamp({ t: 1704067200, i: 1 }), e: utc(2024, 1, 1, 5) }, long(5)],
    ['a day boundary in UTC', diff('$s', '$e', 'day'), { s: utc(2021, 1, 1, 23), e: utc(2021, 1, 2, 1) }, long(1)],
    ['no day boundary at +02:00', diff('$s', '$e', 'day', { timezone: '+02:00' }), { s: utc(2021, 1, 1, 23), e: utc(2021, 1, 2, 1) }, long(0)],
    ['a day boundary at -02:00', diff('$s', '$e', 'day', { timezone: '-02:00' }), { s: utc(2021, 1, 2, 1), e: utc(2021, 1, 2, 3) }, long(1)],
    ['hours over the New York fall-back are elapsed hours', diff('$s', '$e', 'hour', { timezone: 'America/New_York' }), { s: utc(2020, 11, 1, 4), e: utc(2020, 11, 1, 7) }, long(3)],
    ['a day over the New York spring-forward', diff('$s', '$e', 'day', { timezone: 'America/New_York' }), { s: utc(2020, 3, 8, 4, 30), e: utc(2020, 3, 9, 3, 30) }, long(1)],
    ['a month boundary on the Tokyo clock, not in UTC', diff('$s', '$e', 'month', { timezone: 'Asia/Tokyo' }), { s: utc(2021, 1, 31, 14), e: utc(2021, 1, 31, 16) }, long(1)],
    ['a time zone from the document', diff('$s', '$e', 'day', { timezone: '$tz' }), { s: utc(2021, 1, 1, 23), e: utc(2021, 1, 2, 1), tz: '+02:00' }, long(0)],
  ]);
});

describe('$dateDiff: null and missing', () => {
  valueRowsWithDoc([
    ['a null startDate', diff('$s', utc(2021, 1, 1), 'day'), { s: null }, null],
    ['a missing endDate', diff(utc(2021, 1, 1), '$e', 'day'), {}, null],
    ['a null unit', diff('$s', '$s', null), { s: utc(2021, 1, 1) }, null],
    ['a missing timezone', diff('$s', '$s', 'day', { timezone: '$tz' }), { s: utc(2021, 1, 1) }, null],
    ['a missing startOfWeek with a week unit', diff('$s', '$s', 'week', { startOfWeek: '$w' }), { s: utc(2021, 1, 1) }, null],
    ['a null startDate before a bad endDate', diff('$s', '$e', 'day'), { s: null, e: 'x' }, null],
    ['a constant null startOfWeek ignored for a day unit', diff(utc(2021, 1, 1), utc(2021, 1, 3), 'day', { startOfWeek: null }), {}, long(2)],
  ]);
});

describe('$dateDiff: errors', () => {
  parseErrorRows([
    ['parse: a string', { $dateDiff: 'x' }, 5166301, '$dateDiff only supports an object as its argument'],
    ['parse: an unknown argument', { $dateDiff: { startDate: '$s', endDate: '$e', unit: 'day', foo: 1 } }, 5166302, 'Unrecognized argument to $dateDiff: foo'],
    ['parse: no startDate', { $dateDiff: { endDate: '$e', unit: 'day' } }, 5166303, "Missing 'startDate' parameter to $dateDiff"],
    ['parse: no endDate', { $dateDiff: { startDate: '$s', unit: 'day' } }, 5166304, "Missing 'endDate' parameter to $dateDiff"],
    ['parse: no unit', { $dateDiff: { startDate: '$s', endDate: '$e' } }, 5166305, "Missing 'unit' parameter to $dateDiff"],
    ['parse: a constant unknown unit', diff('$s', '$e', 'days'), 9, "$dateDiff parameter 'unit' value parsing failed :: caused by :: unknown time unit value: days"],
    ['parse: a constant non-string unit', diff('$s', '$e', 7), 5439013, "$dateDiff requires 'unit' to be a string, but got int"],
    ['parse: a constant unknown startOfWeek', diff('$s', '$e', 'week', { startOfWeek: 'notaday' }), 5439016, "$dateDiff parameter 'startOfWeek' value cannot be recognized as a day of a week: notaday"],
    ['parse: a constant non-string startOfWeek', diff('$s', '$e', 'week', { startOfWeek: 1 }), 5439015, "$dateDiff requires 'startOfWeek' to be a string, but got int"],
    [
      'parse: a constant unknown time zone',
      diff('$s', '$e', 'day', { timezone: 'Mars/Olympus' }),
      40485,
      '$dateDiff parameter \'timezone\' value parsing failed :: caused by :: unrecognized time zone identifier: "Mars/Olympus"',
    ],
  ]);
  errorRowsWithDoc([
    ['a string startDate', diff('$s', utc(2021, 1, 1), 'day'), { s: '2021-01-01' }, 5166307, "$dateDiff requires 'startDate' to be a date, but got string"],
    ['an array endDate', diff(utc(2021, 1, 1), '$e', 'day'), { e: [utc(2021, 1, 2)] }, 5166307, "$dateDiff requires 'endDate' to be a date, but got array"],
    ['a unit from the document', diff('$s', '$s', '$u'), { s: utc(2021, 1, 1), u: 'Day' }, 9, "$dateDiff parameter 'unit' value parsing failed :: caused by :: unknown time unit value: Day"],
    ['a startOfWeek from the document', diff('$s', '$s', 'week', { startOfWeek: '$w' }), { s: utc(2021, 1, 1), w: 3 }, 5439015, "$dateDiff requires 'startOfWeek' to be a string, but got int"],
    [
      'a non-string time zone from the document',
      diff('$s', '$s', 'day', { timezone: '$tz' }),
      { s: utc(2021, 1, 1), tz: true },
      40517,
      "$dateDiff parameter 'timezone' value parsing failed :: caused by :: timezone must evaluate to a string, found bool",
    ],
  ]);
});
