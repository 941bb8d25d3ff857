/**
 * The time-series options rules (storage/timeseries/options.ts): the IDL parse, the bucketing
 * settlement of create, and the collMod transitions, with mongod's codes and messages.
 */
import { describe, expect, it } from 'vitest';
import { Decimal128, Long } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import {
  applyTimeseriesChange,
  parseTimeseriesChange,
  parseTimeseriesDocument,
  settleBucketing,
  timeseriesDocument,
  type TimeseriesOptions,
} from '../../../src/storage/timeseries/options.js';

function failure(fn: () => unknown): [number, string] {
  try {
    fn();
  } catch (err) {
    if (err instanceof CommandError) return [err.code, err.message];
    throw err;
  }
  throw new Error('expected an error');
}

describe('settling the bucketing of create', () => {
  it.each([
    [{ timeField: 't' }, { timeField: 't', granularity: 'seconds', bucketMaxSpanSeconds: 3600 }],
    [{ timeField: 't', metaField: 'm', granularity: 'minutes' }, { timeField: 't', metaField: 'm', granularity: 'minutes', bucketMaxSpanSeconds: 86400 }],
    [{ timeField: 't', granularity: 'hours', bucketRoundingSeconds: 86400 }, { timeField: 't', granularity: 'hours', bucketMaxSpanSeconds: 2592000 }],
    [{ timeField: 't', bucketMaxSpanSeconds: 3.9, bucketRoundingSeconds: 3 }, { timeField: 't', bucketRoundingSeconds: 3, bucketMaxSpanSeconds: 3 }],
    [{ timeField: 't', bucketMaxSpanSeconds: new Decimal128('3.5'), bucketRoundingSeconds: 4 }, { timeField: 't', bucketRoundingSeconds: 4, bucketMaxSpanSeconds: 4 }],
    [{ timeField: 't', metaField: null, granularity: null }, { timeField: 't', granularity: 'seconds', bucketMaxSpanSeconds: 3600 }],
  ])('%j is stored as %j', (given, stored) => {
    expect(timeseriesDocument(settleBucketing(parseTimeseriesDocument('create.timeseries', given)))).toEqual(stored);
  });

  it.each([
    [{ timeField: 't', bucketMaxSpanSeconds: Long.fromNumber(-1), bucketRoundingSeconds: 1 }, 2, "BSON field 'bucketMaxSpanSeconds' value must be >= 1, actual value '-1'"],
    [{ timeField: 't', bucketMaxSpanSeconds: NaN, bucketRoundingSeconds: 1 }, 2, "BSON field 'bucketMaxSpanSeconds' value must be >= 1, actual value '0'"],
    [{ timeField: 't', bucketRoundingSeconds: '1' }, 14, "BSON field 'create.timeseries.bucketRoundingSeconds' is the wrong type 'string', expected types '[long, int, decimal, double']"],
    [{ timeField: 't', metaField: 'a\u0000b' }, 2, "'metaField' cannot contain embedded null bytes"],
    [{ timeField: 't', granularity: 'seconds', bucketRoundingSeconds: 300, bucketMaxSpanSeconds: 3600 }, 72, "Timeseries 'bucketRoundingSeconds' is not configurable to a value other than the default of 60 for the provided granularity"],
    [{ timeField: 't', bucketRoundingSeconds: 300 }, 72, "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other"],
  ])('%j fails with %i', (given, code, message) => {
    expect(failure(() => settleBucketing(parseTimeseriesDocument('create.timeseries', given)))).toEqual([code, message]);
  });
});

describe('collMod transitions', () => {
  const seconds: TimeseriesOptions = { timeField: 't', granularity: 'seconds', bucketMaxSpanSeconds: 3600 };
  const custom: TimeseriesOptions = { timeField: 't', bucketRoundingSeconds: 300, bucketMaxSpanSeconds: 300 };

  it.each([
    [seconds, { granularity: 'minutes' }, { timeField: 't', granularity: 'minutes', bucketMaxSpanSeconds: 86400 }],
    [seconds, { granularity: 'seconds' }, { timeField: 't', granularity: 'seconds', bucketMaxSpanSeconds: 3600 }],
    [seconds, { bucketMaxSpanSeconds: 3600, bucketRoundingSeconds: 3600 }, { timeField: 't', bucketRoundingSeconds: 3600, bucketMaxSpanSeconds: 3600 }],
    [custom, { bucketMaxSpanSeconds: 200.9, bucketRoundingSeconds: 300.1 }, null],
    [custom, {}, { timeField: 't', bucketRoundingSeconds: 300, bucketMaxSpanSeconds: 300 }],
  ])('%j with %j', (current, change, expected) => {
    if (expected === null) {
      expect(failure(() => applyTimeseriesChange(current, parseTimeseriesChange(change)))[0]).toBe(72);
    } else {
      expect(timeseriesDocument(applyTimeseriesChange(current, parseTimeseriesChange(change)))).toEqual(expected);
    }
  });

  it.each([
    [seconds, { bucketMaxSpanSeconds: 3599, bucketRoundingSeconds: 3599 }, 72, 'Timeseries bucketMaxSpanSeconds needs to be greater than or equal to the current value'],
    [seconds, { granularity: 'seconds', bucketMaxSpanSeconds: 7200, bucketRoundingSeconds: 7200 }, 72, "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of 3600 for the provided granularity"],
    [seconds, { bucketMaxSpanSeconds: 3600 }, 72, "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other"],
    [seconds, { granularity: 'Seconds' }, 2, "Enumeration value 'Seconds' for field 'collMod.timeseries.granularity' is not a valid value."],
    [seconds, { metaField: 'm' }, 40415, "BSON field 'collMod.timeseries.metaField' is an unknown field."],
  ])('%j with %j fails with %i', (current, change, code, message) => {
    expect(failure(() => applyTimeseriesChange(current, parseTimeseriesChange(change)))).toEqual([code, message]);
  });
});
