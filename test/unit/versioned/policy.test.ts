import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import {
  checkWriteRange,
  limitsFromOptions,
  parseVersionedOptions,
  versionedOptionsDocument,
  writeRange,
} from '../../../src/ttl/policies/versioned.js';

const V = 1468944000000; // 2016-07-20 00:00 UTC+8
const T = 1469030400000; // 2016-07-21 00:00 UTC+8
const T_PLUS_DAY = 1469116800000; // 2016-07-22 00:00 UTC+8

describe('parseVersionedOptions', () => {
  test("defaults are Tablestore's: 1 version, TTL -1, offset 86400", () => {
    expect(parseVersionedOptions({}, 'create')).toEqual({ maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 });
  });

  test('any numeric type holding an integer is accepted; null keeps the base', () => {
    expect(
      parseVersionedOptions({ maxVersions: Long.fromNumber(5), timeToLive: new Double(86400), maxTimeDeviation: Decimal128.fromString('3600') }, 'create'),
    ).toEqual({ maxVersions: 5, timeToLive: 86400, maxTimeDeviation: 3600 });
    expect(parseVersionedOptions({ maxVersions: null, timeToLive: 90000 }, 'collMod', { maxVersions: 3, timeToLive: -1, maxTimeDeviation: 10 })).toEqual({
      maxVersions: 3,
      timeToLive: 90000,
      maxTimeDeviation: 10,
    });
  });

  test.each([
    ['maxVersions', 0, 'versioned.maxVersions must be an integer from 1 to 2147483647, but received 0'],
    ['maxVersions', 1.5, 'versioned.maxVersions must be an integer from 1 to 2147483647, but received 1.5'],
    ['maxVersions', Long.fromString('2147483648'), 'versioned.maxVersions must be an integer from 1 to 2147483647, but received 2147483648'],
    ['timeToLive', 86399, 'versioned.timeToLive must be -1 (versions never expire) or an integer number of seconds from 86400 to 2147483647, but received 86399'],
    ['timeToLive', 0, 'versioned.timeToLive must be -1 (versions never expire) or an integer number of seconds from 86400 to 2147483647, but received 0'],
    ['timeToLive', -2, 'versioned.timeToLive must be -1 (versions never expire) or an integer number of seconds from 86400 to 2147483647, but received -2'],
    ['maxTimeDeviation', 0, 'versioned.maxTimeDeviation must be an integer number of seconds from 1 to 2147483647, but received 0'],
    ['maxTimeDeviation', -1, 'versioned.maxTimeDeviation must be an integer number of seconds from 1 to 2147483647, but received -1'],
  ])('%s: %s is 2 BadValue', (field, value, message) => {
    expect(() => parseVersionedOptions({ [field]: value }, 'create')).toThrow(new CommandError('BadValue', message));
  });

  test('unknown fields are 40415 and non-numbers 14, named after the command', () => {
    expect(() => parseVersionedOptions({ maxVersion: 2 }, 'collMod')).toThrow(
      new CommandError('IDLUnknownField', "BSON field 'collMod.versioned.maxVersion' is an unknown field."),
    );
    expect(() => parseVersionedOptions({ timeToLive: '86400' }, 'create')).toThrow(
      new CommandError('TypeMismatch', "BSON field 'create.versioned.timeToLive' is the wrong type 'string', expected types '[long, int, decimal, double']"),
    );
  });

  test('the stored document and back', () => {
    const doc = versionedOptionsDocument({ maxVersions: 5, timeToLive: -1, maxTimeDeviation: 86400 });
    expect(Object.keys(doc)).toEqual(['maxVersions', 'timeToLive', 'maxTimeDeviation']);
    expect(limitsFromOptions({ versioned: doc })).toEqual({ maxVersions: 5, timeToLive: -1, maxTimeDeviation: 86400 });
    expect(limitsFromOptions({})).toBe(null);
  });
});

describe('write range', () => {
  test("the seed's example: offset 86400 at 2016-07-21 00:00 UTC+8 allows [1468944000000, 1469116800000)", () => {
    expect(writeRange({ maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 }, T)).toEqual({ minMs: V, maxMs: T_PLUS_DAY });
  });

  test('the lower bound is the later of now − offset and now − TTL', () => {
    expect(writeRange({ maxVersions: 1, timeToLive: 86400, maxTimeDeviation: 10 * 86400 }, T)).toEqual({ minMs: V, maxMs: T + 10 * 86400_000 });
    expect(writeRange({ maxVersions: 1, timeToLive: 10 * 86400, maxTimeDeviation: 60 }, T)).toEqual({ minMs: T - 60_000, maxMs: T + 60_000 });
  });

  test("the seed's failing version 1468943999000 fails the row with Tablestore's text; the bounds are min-inclusive, max-exclusive", () => {
    const limits = { maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 };
    expect(() => checkWriteRange([{ column: 'ok', value: 1, ts: V }, { column: 'price', value: 2, ts: 1468943999000 }], limits, T)).toThrow(
      new CommandError('BadValue', 'Invalid timestamp. Cell:price. Timestamp:1468943999000. MinTimestamp:1468944000000. MaxTimestamp:1469116800000.'),
    );
    expect(() => checkWriteRange([{ column: 'c', value: 1, ts: T_PLUS_DAY }], limits, T)).toThrow(
      new CommandError('BadValue', 'Invalid timestamp. Cell:c. Timestamp:1469116800000. MinTimestamp:1468944000000. MaxTimestamp:1469116800000.'),
    );
    expect(() => checkWriteRange([{ column: 'c', value: 1, ts: V }, { column: 'd', value: 1, ts: T_PLUS_DAY - 1 }], limits, T)).not.toThrow();
  });
});
