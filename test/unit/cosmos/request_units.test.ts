/**
 * The request-unit model's pieces on their own (src/cosmos/request_units/): the charge formula,
 * the token bucket in milli-RU on a given clock, the strict option parsers, the 16500 text and
 * the cosmosThrottle data checks.
 */
import { describe, expect, test } from 'vitest';
import { RequestUnitBucket } from '../../../src/cosmos/request_units/bucket.js';
import { kilobytes, requestCharge, writeCharge } from '../../../src/cosmos/request_units/charge.js';
import { injectionMatches, parseThrottleInjection } from '../../../src/cosmos/request_units/injection.js';
import { parseRequestUnitOptions, parseRuPerSecondFlag } from '../../../src/cosmos/request_unit_options.js';
import { retryTimeLimitError, throttleError, throttleMessage } from '../../../src/cosmos/request_units/throttle.js';

describe('charge model', () => {
  test.each([
    [0, 1],
    [1, 1],
    [1024, 1],
    [1025, 2],
    [4096, 4],
    [4097, 5],
  ])('%i bytes are %i started KB', (bytes, kb) => {
    expect(kilobytes(bytes)).toBe(kb);
  });

  test.each([
    ['a point read of 1 KB', { docsExamined: 1, returnedBytes: [1000], written: [] }, 1],
    ['a point read of 3 KB', { docsExamined: 1, returnedBytes: [3000], written: [] }, 3],
    ['a query returning nothing of 100 scanned', { docsExamined: 100, returnedBytes: [], written: [] }, 10],
    ['a query returning 2 of 12 scanned', { docsExamined: 12, returnedBytes: [100, 2000], written: [] }, 4],
    ['an empty request', { docsExamined: 0, returnedBytes: [], written: [] }, 1],
    ['an insert of 1 KB, _id only', { docsExamined: 0, returnedBytes: [], written: [{ bytes: 1000, indexes: 1 }] }, 5.5],
    ['an insert of 1 KB, 2 secondary indexes', { docsExamined: 0, returnedBytes: [], written: [{ bytes: 1000, indexes: 3 }] }, 6.5],
    ['an insert of 2.5 KB', { docsExamined: 0, returnedBytes: [], written: [{ bytes: 2500, indexes: 1 }] }, 15.5],
    ['an update found by a scan of 3', { docsExamined: 3, returnedBytes: [], written: [{ bytes: 10, indexes: 1 }] }, 5.8],
  ])('%s: %d RU', (_name, usage, ru) => {
    expect(requestCharge(usage)).toBe(ru);
  });

  test('a write: 5 RU per started KB and 0.5 RU per index', () => {
    expect(writeCharge({ bytes: 5000, indexes: 4 })).toBe(27);
  });
});

describe('token bucket', () => {
  test('starts full, admits while not in debt, tells the wait until the debt is paid', () => {
    const bucket = new RequestUnitBucket(10, 1000);
    expect(bucket.available(1000)).toBe(10);
    bucket.spend(5.5, 1000);
    bucket.spend(5.5, 1000);
    expect(bucket.available(1000)).toBe(-1);
    expect(bucket.retryAfterMs(1000)).toBe(100);
    expect(bucket.retryAfterMs(1099)).toBe(1);
    expect(bucket.retryAfterMs(1100)).toBe(0);
    expect(bucket.available(1100)).toBe(0);
  });

  test('refills up to one second of units, never more', () => {
    const bucket = new RequestUnitBucket(500, 0);
    bucket.spend(200, 0);
    expect(bucket.available(100)).toBe(350);
    expect(bucket.available(60_000)).toBe(500);
  });

  test('the wait until it holds an amount is capped at a full bucket', () => {
    const bucket = new RequestUnitBucket(500, 0);
    bucket.spend(500.5, 0);
    expect(bucket.msUntilHolding(100, 0)).toBe(201);
    expect(bucket.msUntilHolding(100_000, 0)).toBe(1001);
    expect(bucket.msUntilHolding(0, 1)).toBe(0);
  });
});

describe('options', () => {
  test('defaults: unlimited, no server-side retry', () => {
    expect(parseRequestUnitOptions(undefined, 'x')).toEqual({ ruPerSecond: null, serverSideRetry: false });
    expect(parseRequestUnitOptions({ ruPerSecond: 400, serverSideRetry: true }, 'x')).toEqual({ ruPerSecond: 400, serverSideRetry: true });
  });

  test.each([[0], [-5], [1.5], ['400'], [null], [Number.NaN], [2_000_000_000]])('ruPerSecond %s is refused', (value) => {
    expect(() => parseRequestUnitOptions({ ruPerSecond: value }, 'MayflyServer.create()')).toThrow(
      /^MayflyServer\.create\(\): option 'cosmos\.ruPerSecond' must be a whole number of request units per second from 1 to 1000000000 \(leave it out for unlimited\), not /,
    );
  });

  test('serverSideRetry must be a boolean', () => {
    expect(() => parseRequestUnitOptions({ serverSideRetry: 'yes' }, 'w')).toThrow("w: option 'cosmos.serverSideRetry' must be true or false, not \"yes\"");
  });

  test.each([['400', 400], ['1', 1]])('--cosmos-ru-per-second %s', (text, n) => {
    expect(parseRuPerSecondFlag(text)).toBe(n);
  });

  test.each([['0'], ['1.5'], ['-3'], ['abc'], [''], ['4e2']])('--cosmos-ru-per-second %j is refused', (text) => {
    expect(() => parseRuPerSecondFlag(text)).toThrow(/^--cosmos-ru-per-second must be a whole number of request units per second from 1 to 1000000000/);
  });
});

describe('throttle errors', () => {
  test("16500's text, as Cosmos sends it", () => {
    expect(throttleMessage(34, 'a-b')).toBe(
      "Error=16500, RetryAfterMs=34, Details='Response status code does not indicate success: TooManyRequests (429); Substatus: 3200; ActivityId: a-b; Reason: (\r\nErrors : [\r\n  \"Request rate is large. More Request Units may be needed, so no changes were made. Please retry this request later. Learn more: http://aka.ms/cosmosdb-error-429\"\r\n]\r\n);",
    );
    expect(throttleError(34, 'a-b').toReply()).toMatchObject({ code: 16500, codeName: 'RequestRateTooLarge' });
  });

  test('the server-side retry time limit is 50 ExceededTimeLimit', () => {
    expect(retryTimeLimitError(60_000).toReply()).toMatchObject({ code: 50, codeName: 'ExceededTimeLimit' });
  });
});

describe('cosmosThrottle data', () => {
  test('parsed', () => {
    const parsed = parseThrottleInjection({ commands: ['find', 'insert'], retryAfterMs: 250, namespace: 'db.c' });
    expect([...parsed.commands]).toEqual(['find', 'insert']);
    expect(parsed.retryAfterMs).toBe(250);
    expect(parsed.namespace).toBe('db.c');
  });

  test.each([
    [{ retryAfterMs: 1 }, "cosmosThrottle: 'data.commands' must be a non-empty array of command names, such as ['insert', 'find']"],
    [{ commands: [], retryAfterMs: 1 }, "cosmosThrottle: 'data.commands' must be a non-empty array of command names, such as ['insert', 'find']"],
    [{ commands: ['find', 3], retryAfterMs: 1 }, "cosmosThrottle: 'data.commands' must be a non-empty array of command names, such as ['insert', 'find']"],
    [{ commands: ['find'] }, "cosmosThrottle: 'data.retryAfterMs' must be a whole number of milliseconds from 0 to 2147483647"],
    [{ commands: ['find'], retryAfterMs: -1 }, "cosmosThrottle: 'data.retryAfterMs' must be a whole number of milliseconds from 0 to 2147483647"],
    [{ commands: ['find'], retryAfterMs: 1.5 }, "cosmosThrottle: 'data.retryAfterMs' must be a whole number of milliseconds from 0 to 2147483647"],
    [{ commands: ['find'], retryAfterMs: 1, namespace: 'nodot' }, "cosmosThrottle: 'data.namespace' must be a namespace string such as 'db.coll'"],
    [{ commands: ['find'], retryAfterMs: 1, errorCode: 2 }, "cosmosThrottle: unknown data field 'errorCode'; the fields are commands, retryAfterMs, namespace"],
  ])('%j is refused', (data, message) => {
    expect(() => parseThrottleInjection(data)).toThrow(message);
  });

  test('matches by command name and namespace', () => {
    const data = { commands: ['find', 'getMore'], retryAfterMs: 5, namespace: 'db.c' };
    expect(injectionMatches(data, 'find', 'db', { find: 'c' })).toBe(true);
    expect(injectionMatches(data, 'find', 'db', { find: 'd' })).toBe(false);
    expect(injectionMatches(data, 'getMore', 'db', { getMore: 1, collection: 'c' })).toBe(true);
    expect(injectionMatches(data, 'insert', 'db', { insert: 'c' })).toBe(false);
  });
});
