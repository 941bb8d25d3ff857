import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../src/bson/library.js';
import { encodeStored } from '../../../src/storage/record_format.js';
import { BsonRecord, documentField } from '../../../src/storage/record.js';
import { CommandError } from '../../../src/errors/command_error.js';
import {
  COSMOS_TS_ONLY_MESSAGE,
  COSMOS_TTL_FIELD,
  checkContainerTtl,
  cosmosExpiryMs,
  documentTtl,
  effectiveTtl,
  isCosmosTtlKey,
} from '../../../src/ttl/policies/cosmos.js';

const dec = (s: string) => Decimal128.fromString(s);

describe('documentTtl: the root `ttl` rules of Cosmos DB for MongoDB', () => {
  test.each([
    ['int32 20', 20, 20],
    ['double 20.0', new Double(20), 20],
    ['int64 20', Long.fromNumber(20), 20],
    ['-1 (never)', -1, -1],
    ['int64 -1', Long.fromNumber(-1), -1],
    ['int32 max', 2147483647, 2147483647],
    ['int64 int32 max', Long.fromNumber(2147483647), 2147483647],
    ['1', 1, 1],
  ] as const)('valid: %s', (_name, value, want) => expect(documentTtl(value)).toBe(want));

  test.each([
    ['20.5', 20.5],
    ['int64 2147483649', Long.fromString('2147483649')],
    ['double beyond int32', 2147483648],
    ['"20"', '20'],
    ['0', 0],
    ['-0.0', -0],
    ['-2', -2],
    ['int64 0', Long.fromNumber(0)],
    ['null', null],
    ['true', true],
    ['decimal 20', dec('20')],
    ['object', { ttl: 20 }],
    ['array', [20]],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['missing', undefined],
  ] as const)('invalid, ignored: %s', (_name, value) => expect(documentTtl(value)).toBeUndefined());
});

describe('the container × document matrix (TTL.md)', () => {
  const modifiedAtMs = 1_000_000;
  // Container null is "no _ts TTL index": no CosmosJob exists, nothing expires (tested end to end).
  test.each([
    // container, document ttl, expiry
    [-1, undefined, Infinity],
    [-1, 'x', Infinity],
    [-1, -1, Infinity],
    [-1, 30, modifiedAtMs + 30_000],
    [600, undefined, modifiedAtMs + 600_000],
    [600, 20.5, modifiedAtMs + 600_000],
    [600, 0, modifiedAtMs + 600_000],
    [600, -1, Infinity],
    [600, 30, modifiedAtMs + 30_000],
    [600, 6000, modifiedAtMs + 6_000_000],
  ] as const)('container %s, ttl %s → %s', (container, ttl, want) => {
    expect(cosmosExpiryMs(ttl, modifiedAtMs, container)).toBe(want);
  });

  test('only the root lower-case `ttl` of a record counts', () => {
    const rootTtl = (doc: Document) => documentField(new BsonRecord(encodeStored(doc, 0)), COSMOS_TTL_FIELD);
    expect(effectiveTtl(rootTtl({ _id: 1, meta: { ttl: 5 }, TTL: 5, ttlx: 5 }), 600)).toBe(600);
    expect(effectiveTtl(rootTtl({ _id: 1, meta: { ttl: 5 }, ttl: 5 }), 600)).toBe(5);
    expect(effectiveTtl(rootTtl({ _id: 1, ttl: new Double(7) }), 600)).toBe(7);
    expect(effectiveTtl(rootTtl({ _id: 1, ttl: Long.fromNumber(-1) }), 600)).toBe(-1);
  });
});

describe('checkContainerTtl: expireAfterSeconds on _ts', () => {
  test.each([
    [-1, -1],
    [1, 1],
    [60, 60],
    [new Double(60), 60],
    [Long.fromNumber(60), 60],
    [dec('60'), 60],
    [Long.fromNumber(-1), -1],
    [2147483647, 2147483647],
  ] as const)('%s is accepted as %s', (value, want) => expect(checkContainerTtl(value)).toBe(want));

  test.each([
    [0, '0'],
    [-2, '-2'],
    [60.5, '60.5'],
    [2147483648, '2147483648.0'],
    [Long.fromString('2147483648'), '2147483648'],
    ['60', '"60"'],
    [null, 'null'],
    [true, 'true'],
    [NaN, 'nan.0'],
    [dec('60.5'), '60.5'],
  ] as const)('%s is refused with 2 BadValue naming the allowed values', (value, shown) => {
    let error: unknown;
    try {
      checkContainerTtl(value);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).code).toBe(2);
    expect((error as CommandError).codeName).toBe('BadValue');
    expect((error as CommandError).message).toBe(
      `The 'expireAfterSeconds' option on '_ts' must be -1 (expiry on, no default) or an integer from 1 to 2147483647, but received ${shown}.`,
    );
  });
});

describe('isCosmosTtlKey', () => {
  test.each([
    [{ _ts: 1 }, true],
    [{ _ts: -1 }, true],
    [{ _ts: 1, a: 1 }, false],
    [{ ts: 1 }, false],
    [{ 'meta._ts': 1 }, false],
    [null, false],
  ] as const)('%s → %s', (key, want) => expect(isCosmosTtlKey(key)).toBe(want));

  test('the Cosmos message for other fields is exact', () => {
    expect(COSMOS_TS_ONLY_MESSAGE).toBe("The 'expireAfterSeconds' option is supported on '_ts' field only.");
  });
});
