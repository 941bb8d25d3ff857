/**
 * Time zones and the civil calendar (src/storage/values/timezone.ts): which identifiers mongod
 * recognises (`TimeZoneDatabase::getTimeZone`), offsets of named zones through DST, civil parts of
 * instants in any year, and parts carried back into instants.
 */
import { describe, expect, test } from 'vitest';
import {
  UTC,
  civilFromDays,
  dateParts,
  dayOfWeek,
  dayOfYear,
  daysFromCivil,
  instantFromParts,
  isoWeekDate,
  parseUtcOffset,
  timeZoneNamed,
} from '../../../src/storage/values/timezone.js';

const HOUR = 3_600_000;

describe('timeZoneNamed', () => {
  const recognised: Array<[string, number, number]> = [
    // id, instant, offset at the instant
    ['UTC', Date.UTC(2024, 6, 1), 0],
    ['GMT', Date.UTC(2024, 6, 1), 0],
    ['Europe/Paris', Date.UTC(2024, 0, 15), HOUR],
    ['Europe/Paris', Date.UTC(2024, 6, 15), 2 * HOUR],
    ['America/New_York', Date.UTC(2024, 0, 15), -5 * HOUR],
    ['America/New_York', Date.UTC(2024, 6, 15), -4 * HOUR],
    ['US/Eastern', Date.UTC(2024, 6, 15), -4 * HOUR],
    ['Asia/Calcutta', Date.UTC(2024, 6, 15), 5.5 * HOUR],
    ['Asia/Kathmandu', Date.UTC(2024, 6, 15), 5.75 * HOUR],
    ['Etc/GMT+5', Date.UTC(2024, 6, 15), -5 * HOUR],
    ['+05:30', Date.UTC(2024, 6, 15), 5.5 * HOUR],
    ['-0500', Date.UTC(2024, 6, 15), -5 * HOUR],
    ['+03', Date.UTC(2024, 6, 15), 3 * HOUR],
    ['+05:70', Date.UTC(2024, 6, 15), 5 * HOUR + 70 * 60_000],
    ['+25:00', Date.UTC(2024, 6, 15), 25 * HOUR],
    ['-00:00', Date.UTC(2024, 6, 15), -0],
  ];
  test.each(recognised)('%s at %d is %d ms from UTC', (id, instant, offset) => {
    const zone = timeZoneNamed(id);
    expect(zone?.id).toBe(id);
    expect(zone!.offsetMs(instant)).toBe(offset);
  });

  const unrecognised = ['', 'Not/A_Timezone', 'America/Nowhere', 'america/new_york', 'AMERICA/NEW_YORK', '25:00', '123', '+5', '+123', '+05:3', 'UTC+1', '+05:30:00', 'PST', 'IST', 'CST', 'SystemV/EST5', 'Canada/East-Saskatchewan'];
  test.each(unrecognised)('%j is not a time zone', (id) => {
    expect(timeZoneNamed(id)).toBeNull();
  });

  test('offsets are parsed as mongod parses them', () => {
    expect([parseUtcOffset('+01'), parseUtcOffset('-0130'), parseUtcOffset('+01:30'), parseUtcOffset('01:30'), parseUtcOffset('+1:30')]).toEqual([
      HOUR,
      -1.5 * HOUR,
      1.5 * HOUR,
      null,
      null,
    ]);
  });
});

describe('the civil calendar', () => {
  test('day counts round-trip across eras and leap rules', () => {
    const dates: Array<[number, number, number, number]> = [
      // the day counts are what JavaScript's Date.UTC gives for the same proleptic Gregorian dates
      [1970, 1, 1, 0],
      [2000, 3, 1, 11_017],
      [1969, 12, 31, -1],
      [1600, 2, 29, -135_081],
      [-1, 12, 31, -719_529],
      [0, 1, 1, -719_528],
    ];
    for (const [y, m, d, days] of dates) {
      expect(daysFromCivil(y, m, d)).toBe(days);
      expect(civilFromDays(days)).toEqual({ year: y, month: m, day: d });
    }
    expect(daysFromCivil(2023, 14, 1)).toBe(daysFromCivil(2024, 2, 1));
    expect(daysFromCivil(2024, 0, 1)).toBe(daysFromCivil(2023, 12, 1));
  });

  test('dateParts splits an instant in UTC, before the epoch too', () => {
    expect(dateParts(Date.UTC(2024, 1, 29, 23, 59, 58, 999), UTC)).toEqual({ year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58, millisecond: 999 });
    expect(dateParts(-1, UTC)).toEqual({ year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999 });
  });

  test('dateParts follows a named zone across its DST change', () => {
    const ny = timeZoneNamed('America/New_York')!;
    // 2024-03-10 06:59:59 UTC is 01:59:59 EST; a second later it is 03:00:00 EDT.
    expect(dateParts(Date.UTC(2024, 2, 10, 6, 59, 59), ny)).toMatchObject({ day: 10, hour: 1, minute: 59, second: 59 });
    expect(dateParts(Date.UTC(2024, 2, 10, 7, 0, 0), ny)).toMatchObject({ day: 10, hour: 3, minute: 0, second: 0 });
  });

  test('instantFromParts carries overflowing parts and applies the zone', () => {
    expect(instantFromParts({ year: 2017, month: 14, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 }, UTC)).toBe(Date.UTC(2018, 1, 1));
    expect(instantFromParts({ year: 2017, month: 1, day: 1, hour: -1, minute: 0, second: 0, millisecond: 0 }, UTC)).toBe(Date.UTC(2016, 11, 31, 23));
    const ny = timeZoneNamed('America/New_York')!;
    expect(instantFromParts({ year: 2024, month: 7, day: 15, hour: 12, minute: 0, second: 0, millisecond: 0 }, ny)).toBe(Date.UTC(2024, 6, 15, 16));
    expect(instantFromParts({ year: 2024, month: 1, day: 15, hour: 12, minute: 0, second: 0, millisecond: 0 }, ny)).toBe(Date.UTC(2024, 0, 15, 17));
    expect(instantFromParts({ year: 2024, month: 1, day: 15, hour: 12, minute: 0, second: 0, millisecond: 0 }, timeZoneNamed('+05:30')!)).toBe(Date.UTC(2024, 0, 15, 6, 30));
  });

  test('instantFromParts in a gap keeps the offset from before it, in an overlap takes the first', () => {
    const ny = timeZoneNamed('America/New_York')!;
    const paris = timeZoneNamed('Europe/Paris')!;
    const at = (zone: typeof ny, month: number, day: number, hour: number, minute: number) =>
      instantFromParts({ year: 2024, month, day, hour, minute, second: 0, millisecond: 0 }, zone);
    // 02:30 does not exist in New York on 2024-03-10: read with EST, it is 03:30 EDT.
    expect(at(ny, 3, 10, 2, 30)).toBe(Date.UTC(2024, 2, 10, 7, 30));
    // 01:30 happens twice on 2024-11-03: the first, EDT.
    expect(at(ny, 11, 3, 1, 30)).toBe(Date.UTC(2024, 10, 3, 5, 30));
    // 02:30 does not exist in Paris on 2024-03-31: read with CET, it is 03:30 CEST.
    expect(at(paris, 3, 31, 2, 30)).toBe(Date.UTC(2024, 2, 31, 1, 30));
    // 02:30 happens twice on 2024-10-27: timelib takes the second, CET.
    expect(at(paris, 10, 27, 2, 30)).toBe(Date.UTC(2024, 9, 27, 1, 30));
    expect(at(ny, 3, 10, 5, 0)).toBe(Date.UTC(2024, 2, 10, 9, 0));
  });

  test('day of week, day of year and ISO week dates', () => {
    expect([dayOfWeek(2024, 6, 15), dayOfWeek(2024, 6, 16), dayOfWeek(1970, 1, 1)]).toEqual([7, 1, 5]);
    expect([dayOfYear(2024, 12, 31), dayOfYear(2023, 12, 31), dayOfYear(2024, 1, 1)]).toEqual([366, 365, 1]);
    expect(isoWeekDate(2021, 1, 3)).toEqual({ isoYear: 2020, isoWeek: 53, isoDayOfWeek: 7 });
    expect(isoWeekDate(2024, 12, 30)).toEqual({ isoYear: 2025, isoWeek: 1, isoDayOfWeek: 1 });
    expect(isoWeekDate(2024, 6, 15)).toEqual({ isoYear: 2024, isoWeek: 24, isoDayOfWeek: 6 });
  });
});
