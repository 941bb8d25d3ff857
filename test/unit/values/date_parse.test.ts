/**
 * Dates read from strings without a format (src/storage/values/date_parse.ts), as mongod's
 * `$dateFromString`/`$toDate` read them: ISO 8601 dates and date-times, with or without an
 * offset, in the zone given, and 241 ConversionFailure otherwise.
 */
import { describe, expect, test } from 'vitest';
import { parseDateString } from '../../../src/storage/values/date_parse.js';
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
  ];
  test.each(rows)('%s', (text, expected) => {
    expect(parseDateString(text)).toBe(expected);
  });

  test('a wall time is read in the zone given', () => {
    expect(parseDateString('2017-07-08T12:00:00', timeZoneNamed('America/New_York')!)).toBe(Date.UTC(2017, 6, 8, 16));
  });

  test('not a date: 241', () => {
    expectCommandError(() => parseDateString('not a date'), 241, "Error parsing date string 'not a date'");
    expectCommandError(() => parseDateString('2017-13-01'), 241, "Error parsing date string '2017-13-01'");
  });

  test('an offset in the string together with a zone: 241', () => {
    expectCommandError(
      () => parseDateString('2017-02-08T12:10:40Z', timeZoneNamed('Europe/Paris')!),
      241,
      'you cannot pass in a date/time string with GMT offset together with a timezone argument',
    );
  });
});
