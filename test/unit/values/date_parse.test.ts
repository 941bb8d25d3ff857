/**
 * Dates read from strings (src/storage/values/date_parse.ts), as mongod reads them: without a
 * format as timelib's `strtotime` does (ISO 8601 and the other forms clients send), with one as
 * `parse_from_format` does, in the zone given, and 241 ConversionFailure otherwise.
 */
import { describe, expect, test } from 'vitest';
import { parseDateString, parseDateStringWithFormat } from '../../../src/storage/values/date_parse.js';
import { timeZoneNamed } from '../../../src/storage/values/timezone.js';
import { expectCommandError } from '../aggregation/helpers.js';

describe('parseDateString', () => {
  const rows: Array<[string, number]> = [
    ['2018-03-03', Date.UTC(2018, 2, 3)],
    ['2017-02-08T12:10:40.787Z', Date.UTC(2017, 1, 8, 12, 10, 40, 787)],
    ['2017-02-08T12:10:40.787', Date.UTC(2017, 1, 8, 12, 10, 40, 787)],
    ['2017-02-08 12:10:40', Date.UTC(2017, 1, 8, 12, 10, 40)],
    ['2017-02-08T12:10', Date.UTC(2017, 1, 8, 12, 10)],
    ['2017-02-08T12:10:40+02:00', Date.UTC(2017, 1, 8, 10, 10, 40)],
    ['2017-02-08T12:10:40-0530', Date.UTC(2017, 1, 8, 17, 40, 40)],
    ['2017-02-08T12:10:40+00', Date.UTC(2017, 1, 8, 12, 10, 40)],
    ['2017-02-08T12:10:40 Z', Date.UTC(2017, 1, 8, 12, 10, 40)],
    ['2017-02-08 EST', Date.UTC(2017, 1, 8, 5)],
    ['  2017-02-08T12:10:40Z\t\n', Date.UTC(2017, 1, 8, 12, 10, 40)],
    ['\u00a02017-02-08\u0000', Date.UTC(2017, 1, 8)],
    ['20170208', Date.UTC(2017, 1, 8)],
    ['2017/02/08', Date.UTC(2017, 1, 8)],
    ['02/08/2017', Date.UTC(2017, 1, 8)],
    ['2024-W24-6', Date.UTC(2024, 5, 15)],
    ['2024W246', Date.UTC(2024, 5, 15)],
    ['2024-W24', Date.UTC(2024, 5, 10)],
    ['oct 20 2020', Date.UTC(2020, 9, 20)],
    ['Feb 8, 2017', Date.UTC(2017, 1, 8)],
    ['8 February 2017', Date.UTC(2017, 1, 8)],
    ['February 8th 2017 3pm', Date.UTC(2017, 1, 8, 15)],
    ['Sat, 15 Jun 2024 14:30:45 GMT', Date.UTC(2024, 5, 15, 14, 30, 45)],
    ['WED jan 31 12:05:28 +03:30 1996', Date.UTC(1996, 0, 31, 8, 35, 28)],
    ['Monday jan 30 2024', Date.UTC(2024, 1, 5)],
    ['@1718461845', Date.UTC(2024, 5, 15, 14, 30, 45)],
    ['@-1.5', -1500],
  ];
  test.each(rows)('%s', (text, expected) => {
    expect(parseDateString(text)).toBe(expected);
  });

  test('a wall time is read in the zone given', () => {
    expect(parseDateString('2017-07-08T12:00:00', timeZoneNamed('America/New_York')!)).toBe(Date.UTC(2017, 6, 8, 16));
    expect(parseDateString('2017-07-08T12:00:00', timeZoneNamed('+05:30')!)).toBe(Date.UTC(2017, 6, 8, 6, 30));
  });

  test('an offset in the string is allowed with a zero-offset zone', () => {
    expect(parseDateString('2017-02-08T12:10:40+05:00', timeZoneNamed('+00:00')!)).toBe(Date.UTC(2017, 1, 8, 7, 10, 40));
  });

  const failures: Array<[string, string]> = [
    ['not-a-date', "Error parsing date string 'not-a-date'; 0: The timezone could not be found in the database 'n'"],
    ['', "Error parsing date string ''; 0: Empty string ''"],
    ['2017-02-30', "Error parsing date string '2017-02-30'; 10: The parsed date was invalid ''"],
    ['2019-02-29', "Error parsing date string '2019-02-29'; 10: The parsed date was invalid ''"],
    ['2024', 'an incomplete date/time string has been found, with elements missing: "2024"'],
    [
      '2017-02-08T12:10:40 America/New_York',
      "Error parsing date string '2017-02-08T12:10:40 America/New_York'; 20: passing a time zone identifier as part of the string is not allowed 'A'",
    ],
  ];
  test.each(failures)('241 for %j', (text, message) => {
    expectCommandError(() => parseDateString(text), 241, message);
  });

  test.each(['2017-13-01', '10000-01-01T00:00:00Z', '2024 -06-15T12:30:45Z', '2024-06-15T12: 30:45Z'])('241 for %j', (text) => {
    expect(() => parseDateString(text)).toThrow(/^Error parsing date string/);
  });

  test('an offset in the string together with a zone: 241', () => {
    expectCommandError(
      () => parseDateString('2017-02-08T12:10:40+01:00', timeZoneNamed('Europe/Paris')!),
      241,
      'you cannot pass in a date/time string with GMT offset together with a timezone argument',
    );
    expectCommandError(
      () => parseDateString('2017-02-08T12:10:40Z', timeZoneNamed('Europe/Paris')!),
      241,
      "you cannot pass in a date/time string with time zone information ('Z') together with a timezone argument",
    );
  });
});

describe('parseDateStringWithFormat', () => {
  const rows: Array<[string, string, number]> = [
    ['06-15-2018', '%m-%d-%Y', Date.UTC(2018, 5, 15)],
    ['15/06/2018', '%d/%m/%Y', Date.UTC(2018, 5, 15)],
    ['20170208', '%Y%m%d', Date.UTC(2017, 1, 8)],
    ['2018-06-15T10:30:45.123', '%Y-%m-%dT%H:%M:%S.%L', Date.UTC(2018, 5, 15, 10, 30, 45, 123)],
    ['2024-06-15 14', '%Y-%m-%d %H', Date.UTC(2024, 5, 15, 14)],
    ['jan 15 2020', '%b %d %Y', Date.UTC(2020, 0, 15)],
    ['January 15 2020', '%B %d %Y', Date.UTC(2020, 0, 15)],
    ['2024', '%G', Date.UTC(2024, 0, 1)],
    ['2024-W24-6', '%G-W%V-%u', Date.UTC(2024, 5, 15)],
    ['2024 167', '%Y %j', Date.UTC(2024, 5, 16)],
    ['2024-06-15 +0530', '%Y-%m-%d %z', Date.UTC(2024, 5, 14, 18, 30)],
    ['2024-06-15 +330', '%Y-%m-%d %Z', Date.UTC(2024, 5, 14, 18, 30)],
    ['100% 2024-06-15', '100%% %Y-%m-%d', Date.UTC(2024, 5, 15)],
    ['2024-6-5', '%Y-%m-%d', Date.UTC(2024, 5, 5)],
  ];
  test.each(rows)('%s through %s', (text, format, expected) => {
    expect(parseDateStringWithFormat(text, format)).toBe(expected);
  });

  const failures: Array<[string, string, string]> = [
    ['2017-02-08', '%m-%d-%Y', "Error parsing date string '2017-02-08'; 2: The format separator does not match '1'"],
    ['2024-06-15 extra', '%Y-%m-%d', "Error parsing date string '2024-06-15 extra'; 10: Trailing data ' '"],
    ['2024', '%Y', 'an incomplete date/time string has been found, with elements missing: "2024"'],
    ['2019-02-29', '%Y-%m-%d', "Error parsing date string '2019-02-29'; 10: The parsed date was invalid ''"],
    ['24-06-15', '%Y-%m-%d', "Error parsing date string '24-06-15'; 0: A four digit year could not be found '2'"],
    ['10:30:45.12', '%H:%M:%S.%L', "Error parsing date string '10:30:45.12'; 9: A three digit millisecond could not be found '1'"],
    [' 2024', '%Y', "Error parsing date string ' 2024'; 0: A four digit year could not be found ' '"],
  ];
  test.each(failures)('241 for %j through %j', (text, format, message) => {
    expectCommandError(() => parseDateStringWithFormat(text, format), 241, message);
  });
});
