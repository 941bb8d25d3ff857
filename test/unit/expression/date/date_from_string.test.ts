/**
 * `$dateFromString`: strings with and without a format, zones, onNull and onError, and mongod
 * 8.2's checks in its order (format, zone, null string, then the reading, whose 241 onError
 * replaces).
 */
import { describe, it } from 'vitest';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';
import { compile, evaluateField } from '../helpers.js';

const utc = (...p: [number, number, number?, number?, number?, number?, number?]) => new Date(Date.UTC(...p));

describe('$dateFromString', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['an ISO date-time', { dateString: '2017-02-08T12:10:40.787' }, utc(2017, 1, 8, 12, 10, 40, 787)],
    ['with Z', { dateString: '2017-02-08T12:10:40.787Z' }, utc(2017, 1, 8, 12, 10, 40, 787)],
    ['a date alone is midnight', { dateString: '2017-02-08' }, utc(2017, 1, 8)],
    ['a month name', { dateString: 'oct 20 2020' }, utc(2020, 9, 20)],
    ['read in a zone', { dateString: '2017-02-08T12:10:40.787', timezone: 'America/New_York' }, utc(2017, 1, 8, 17, 10, 40, 787)],
    ['read in an offset', { dateString: '2017-02-09T03:35:02.055', timezone: '+0530' }, utc(2017, 1, 8, 22, 5, 2, 55)],
    ['an offset in the string with UTC', { dateString: '2017-02-08T12:10:40.787+05:00', timezone: 'UTC' }, utc(2017, 1, 8, 7, 10, 40, 787)],
    ['through a format', { dateString: '06-15-2018', format: '%m-%d-%Y' }, utc(2018, 5, 15)],
    ['through a format in a zone', { dateString: '06-15-2018', format: '%m-%d-%Y', timezone: '-05:00' }, utc(2018, 5, 15, 5)],
    ['the string from an expression', { dateString: { $concat: ['2017', '-02-08'] } }, utc(2017, 1, 8)],
    ['a null string gives null', { dateString: null }, null],
    ['a missing string gives onNull', { dateString: '$nope', onNull: 'none' }, 'none'],
    ['onNull wins over a bad format', { dateString: null, format: null, onNull: 1 }, 1],
    ['a bad string gives onError', { dateString: 'not-a-date', onError: 'bad' }, 'bad'],
    ['a string that is no string gives onError', { dateString: 5, onError: 'bad' }, 'bad'],
    ['onError unused when the string reads', { dateString: '2017-02-08', onError: 'bad' }, utc(2017, 1, 8)],
    ['a null zone gives null', { dateString: '2017-02-08', timezone: '$nope' }, null],
    ['a null format gives null', { dateString: '2017-02-08', format: '$nope' }, null],
  ];
  for (const [name, arg, expected] of rows) {
    it(name, () => expectExact(evaluateField({ $dateFromString: arg }), { v: expected }));
  }
});

describe('$dateFromString errors', () => {
  it('not an object: 40540', () =>
    expectCommandError(() => compile({ $dateFromString: '2017' }), 40540, '$dateFromString only supports an object as an argument, found: string'));
  it('an unknown field: 40541', () =>
    expectCommandError(() => compile({ $dateFromString: { dateString: 'x', foo: 1 } }), 40541, 'Unrecognized argument to $dateFromString: foo'));
  it('no dateString: 40542', () =>
    expectCommandError(() => compile({ $dateFromString: { format: '%Y' } }), 40542, "Missing 'dateString' parameter to $dateFromString"));
  it('a format that is no string: 40684', () =>
    expectCommandError(
      () => evaluateField({ $dateFromString: { dateString: '2017', format: 1 } }),
      40684,
      "$dateFromString requires that 'format' be a string, found: int with value 1",
    ));
  it('a specifier only $dateToString has: 18536', () =>
    expectCommandError(
      () => evaluateField({ $dateFromString: { dateString: '2024 23 6', format: '%Y %U %w' } }),
      18536,
      "Invalid format character '%U' in format string",
    ));
  it('a string that is no string: 241', () =>
    expectCommandError(
      () => evaluateField({ $dateFromString: { dateString: 5 } }),
      241,
      "$dateFromString requires that 'dateString' be a string, found: int with value 5",
    ));
  it('a string not matching the format: 241', () =>
    expectCommandError(
      () => evaluateField({ $dateFromString: { dateString: '2017-02-08', format: '%m-%d-%Y' } }),
      241,
      "Error parsing date string '2017-02-08'; 2: The format separator does not match '1'",
    ));
  it('a Z with a zone: 241, which onError does not hide from the zone check order', () =>
    expectExact(evaluateField({ $dateFromString: { dateString: '2017-02-08T12:00:00Z', timezone: 'Europe/Paris', onError: 'e' } }), { v: 'e' }));
  it('an unknown zone: 40485, which onError does not replace', () =>
    expectCommandError(
      () => evaluateField({ $dateFromString: { dateString: '2017-02-08', timezone: '$tz', onError: 'e' } }, { tz: 'Z' }),
      40485,
      'unrecognized time zone identifier: "Z"',
    ));
});
