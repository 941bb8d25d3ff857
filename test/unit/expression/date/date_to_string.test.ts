/** `$dateToString`: every specifier, the default formats, zones, onNull, and mongod 8.2's errors. */
import { describe, it } from 'vitest';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';
import { compile, evaluateField } from '../helpers.js';

// Saturday 2024-06-15T14:30:45.123Z: day 167, ISO 2024-W24-6, week 23 from Sunday.
const DOC = { d: new Date(Date.UTC(2024, 5, 15, 14, 30, 45, 123)), early: new Date(Date.UTC(2024, 0, 5, 1, 2, 3, 4)) };

describe('$dateToString', () => {
  const rows: Array<[string, unknown, unknown]> = [
    ['the default format in UTC ends in Z', { date: '$d' }, '2024-06-15T14:30:45.123Z'],
    ['the default format elsewhere has no Z', { date: '$d', timezone: 'America/New_York' }, '2024-06-15T10:30:45.123'],
    ['a zero offset is UTC', { date: '$d', timezone: '+00:00' }, '2024-06-15T14:30:45.123Z'],
    ['%Y %m %d %H %M %S %L', { date: '$d', format: '%d/%m/%Y %H:%M:%S.%L' }, '15/06/2024 14:30:45.123'],
    ['zero padding', { date: '$early', format: '%m-%d %H:%M:%S.%L %j' }, '01-05 01:02:03.004 005'],
    ['%j %w %u %U %V %G', { date: '$d', format: '%j %w %u %U %V %G' }, '167 7 6 23 24 2024'],
    ['%b %B', { date: '$d', format: '%b %B' }, 'Jun June'],
    ['%z %Z in UTC', { date: '$d', format: '%z %Z' }, '+0000 0'],
    ['%z %Z east', { date: '$d', format: '%z %Z', timezone: '+05:30' }, '+0530 330'],
    ['%z %Z west', { date: '$d', format: '%z %Z', timezone: '-03:30' }, '-0330 -210'],
    ['%z of a named zone in summer', { date: '$d', format: '%H %z', timezone: 'Europe/Paris' }, '16 +0200'],
    ['%% is a percent sign', { date: '$d', format: '100%% %%Y' }, '100% %Y'],
    ['text without specifiers', { date: '$d', format: 'plain' }, 'plain'],
    ['a null date gives null', { date: null }, null],
    ['a missing date gives onNull', { date: '$nope', onNull: 'none' }, 'none'],
    ['a null date gives onNull', { date: null, onNull: { $concat: ['a', 'b'] } }, 'ab'],
    ['a null format gives null', { date: '$d', format: null }, null],
    ['a null zone gives null', { date: '$d', timezone: '$nope' }, null],
  ];
  for (const [name, arg, expected] of rows) {
    it(name, () => expectExact(evaluateField({ $dateToString: arg }, DOC), { v: expected }));
  }
  it('an onNull that is missing leaves the field out', () => expectExact(evaluateField({ $dateToString: { date: null, onNull: '$nope' } }, DOC), {}));
});

describe('$dateToString errors', () => {
  it('not an object: 18629', () => expectCommandError(() => compile({ $dateToString: '$d' }), 18629, '$dateToString only supports an object as its argument'));
  it('an unknown field: 18534', () =>
    expectCommandError(() => compile({ $dateToString: { date: '$d', foo: 1 } }), 18534, 'Unrecognized argument to $dateToString: foo'));
  it('no date: 18628', () => expectCommandError(() => compile({ $dateToString: { format: '%Y' } }), 18628, "Missing 'date' parameter to $dateToString"));
  it('a format that is no string: 18533', () =>
    expectCommandError(
      () => evaluateField({ $dateToString: { date: '$d', format: 5 } }, DOC),
      18533,
      "$dateToString requires that 'format' be a string, found: int with value 5",
    ));
  it('an unknown specifier: 18536', () =>
    expectCommandError(() => evaluateField({ $dateToString: { date: '$d', format: '%Q' } }, DOC), 18536, "Invalid format character '%Q' in format string"));
  it('a trailing %: 18535', () =>
    expectCommandError(() => evaluateField({ $dateToString: { date: '$d', format: 'abc%' } }, DOC), 18535, "Unmatched '%' at end of format string"));
  it('the format is checked before a null date', () =>
    expectCommandError(() => evaluateField({ $dateToString: { date: null, format: '%Q' } }, DOC), 18536, "Invalid format character '%Q' in format string"));
  it('a value that is no date: 16006', () =>
    expectCommandError(() => evaluateField({ $dateToString: { date: 'x' } }, DOC), 16006, "can't convert from BSON type string to Date"));
  it('a year past 9999: 18537', () =>
    expectCommandError(
      () => evaluateField({ $dateToString: { date: '$d' } }, { d: new Date(253_402_300_800_000) }),
      18537,
      'Could not convert date to string: date component was outside the supported range of 0-9999: 10000',
    ));
  it('a year before 0: 18537', () =>
    expectCommandError(
      () => evaluateField({ $dateToString: { date: '$d', format: '%Y' } }, { d: new Date(Date.UTC(-1, 0, 1)) }),
      18537,
      'Could not convert date to string: date component was outside the supported range of 0-9999: -1',
    ));
});
