/** The generic concerns: readConcern, writeConcern and maxTimeMS as mongod 8.2 parses and checks them. */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, Timestamp } from '../../../src/bson/library.js';
import { checkGenericConcerns, parseMaxTimeMS, parseReadConcern, parseWriteConcern } from '../../../src/commands/read_write_concern.js';
import { errorOf } from '../thrown.js';

const NUMBERS = "'[long, int, decimal, double']";

describe('parseMaxTimeMS', () => {
  test('accepts integral numbers of every type within int32; null and absent are no limit', () => {
    expect([
      parseMaxTimeMS(0, 'c'),
      parseMaxTimeMS(new Double(5), 'c'),
      parseMaxTimeMS(Long.fromNumber(2147483647), 'c'),
      parseMaxTimeMS(Decimal128.fromString('50E2'), 'c'),
      parseMaxTimeMS(null, 'c'),
      parseMaxTimeMS(undefined, 'c'),
    ]).toEqual([0, 5, 2147483647, 5000, 0, 0]);
  });
  const cases: Array<[string, unknown, [number, string]]> = [
    ['a string', 'x', [14, `BSON field 'count.maxTimeMS' is the wrong type 'string', expected types ${NUMBERS}`]],
    ['a bool', true, [14, `BSON field 'count.maxTimeMS' is the wrong type 'bool', expected types ${NUMBERS}`]],
    ['a fraction', 10.25, [9, 'Expected an integer: maxTimeMS: 10.25']],
    ['NaN', NaN, [9, 'Expected an integer, but found NaN in: maxTimeMS: nan.0']],
    ['a negative number', -1, [2, '-1 value for maxTimeMS is out of range [0, 2147483647]']],
    ['beyond int32', 2147483648, [2, '2147483648 value for maxTimeMS is out of range [0, 2147483647]']],
  ];
  for (const [name, value, expected] of cases) {
    test(name, () => expect(errorOf(() => parseMaxTimeMS(value, 'count'))).toEqual(expected));
  }
});

describe('parseReadConcern', () => {
  test('levels, null fields read as absent', () => {
    expect(parseReadConcern('find', { level: 'majority' })).toEqual({ level: 'majority' });
    expect(parseReadConcern('find', { level: null, provenance: null })).toEqual({ level: undefined, provenance: undefined });
    expect(parseReadConcern('find', null)).toBeUndefined();
    expect(parseReadConcern('find', { level: 'snapshot', atClusterTime: new Timestamp({ t: 5, i: 1 }) })?.level).toBe('snapshot');
  });
  const cases: Array<[string, unknown, [number, string]]> = [
    ['not an object', 'local', [14, "BSON field 'find.readConcern' is the wrong type 'string', expected type 'object'"]],
    ['a level of another type', { level: 1 }, [14, "BSON field 'readConcern.level' is the wrong type 'int', expected type 'string'"]],
    ['an unknown level, exact case', { level: 'Local' }, [2, "Enumeration value 'Local' for field 'readConcern.level' is not a valid value."]],
    ['an unknown field', { Level: 'local' }, [40415, "BSON field 'readConcern.Level' is an unknown field."]],
    ['a null afterClusterTime', { afterClusterTime: null }, [14, "BSON field 'readConcern.afterClusterTime' is the wrong type 'null', expected type 'timestamp'"]],
    ['atClusterTime without snapshot', { atClusterTime: new Timestamp({ t: 1, i: 1 }) }, [72, 'atClusterTime field can be set only if level is equal to snapshot']],
    ['a null atClusterTime timestamp', { level: 'snapshot', atClusterTime: new Timestamp({ t: 0, i: 1 }) }, [72, 'atClusterTime cannot be a null timestamp']],
    ['a null afterClusterTime timestamp', { afterClusterTime: new Timestamp({ t: 0, i: 0 }) }, [72, 'afterClusterTime cannot be a null timestamp']],
    ['afterClusterTime with available', { level: 'available', afterClusterTime: new Timestamp({ t: 1, i: 1 }) }, [72, 'afterClusterTime field can be set only if level is equal to majority, local, or snapshot']],
    ['an unknown provenance', { provenance: 'x' }, [2, "Enumeration value 'x' for field 'readConcern.provenance' is not a valid value."]],
  ];
  for (const [name, value, expected] of cases) {
    test(name, () => expect(errorOf(() => parseReadConcern('find', value))).toEqual(expected));
  }
});

describe('parseWriteConcern', () => {
  test('w as a number (doubles truncated, decimals rounded half to even), a mode, tags; null w is the empty mode', () => {
    expect(parseWriteConcern('insert', { w: 1.9, j: 1, wtimeout: -5 })).toEqual({ w: 1, j: true, wtimeoutMs: -5 });
    expect(parseWriteConcern('insert', { w: Decimal128.fromString('0.5') })).toEqual({ w: 0 });
    expect(parseWriteConcern('insert', { w: 'majority', wtimeout: 'x' })).toEqual({ w: 'majority', wtimeoutMs: 0 });
    expect(parseWriteConcern('insert', { w: { dc1: 1 } })).toEqual({ w: { dc1: 1 } });
    expect(parseWriteConcern('insert', { w: null })).toEqual({ w: '' });
  });
  const cases: Array<[string, unknown, [number, string]]> = [
    ['not an object', 1, [14, "BSON field 'insert.writeConcern' is the wrong type 'int', expected type 'object'"]],
    ['an unknown field', { W: 1 }, [40415, "BSON field 'writeConcern.W' is an unknown field."]],
    ['w above 50', { w: 51 }, [9, 'w has to be a non-negative number and not greater than 50; found: 51']],
    ['w NaN', { w: NaN }, [9, 'w cannot be NaN']],
    ['w a bool', { w: true }, [9, 'w has to be a number, string, or object; found: bool']],
    ['empty tags', { w: {} }, [9, 'tagged write concern requires tags']],
    ['a tag that is no number', { w: { dc1: 'x' } }, [9, 'tags must be a single level document with only number values; found: dc1: "x"']],
    ['j a string', { j: 'x' }, [14, "BSON field 'writeConcern.j' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"]],
    ['wtimeout beyond int32', { wtimeout: 2147483648 }, [9, 'wtimeout must be a 32-bit integer']],
  ];
  for (const [name, value, expected] of cases) {
    test(name, () => expect(errorOf(() => parseWriteConcern('insert', value))).toEqual(expected));
  }
});

describe('checkGenericConcerns', () => {
  const run = (cmd: Record<string, unknown>, concerns: Parameters<typeof checkGenericConcerns>[3], replSet: string | null = null) =>
    errorOf(() => checkGenericConcerns('count', 'count', cmd, concerns, replSet));
  test('a command refusing a level says so before the topology', () => {
    expect(run({ readConcern: { level: 'snapshot' } }, { readConcern: 'notSnapshot' })).toEqual([
      72,
      'Command count does not support { readConcern: { level: "snapshot", provenance: "clientSupplied" } } :: caused by :: read concern snapshot not supported',
    ]);
  });
  test('a standalone refuses linearizable, snapshot and cluster times; a replica set accepts them', () => {
    expect(run({ readConcern: { level: 'linearizable' } }, { readConcern: 'all' })).toEqual([123, 'node needs to be a replica set member to use read concern']);
    expect(run({ readConcern: { level: 'snapshot' } }, { readConcern: 'all' })).toEqual([123, 'node needs to be a replica set member to use readConcern: snapshot']);
    expect(run({ readConcern: { afterClusterTime: new Timestamp({ t: 1, i: 1 }) } }, { readConcern: 'all' })).toEqual([
      20,
      'Cannot specify afterClusterTime readConcern without replication enabled',
    ]);
    expect(() => checkGenericConcerns('find', 'find', { readConcern: { level: 'linearizable' } }, { readConcern: 'all' }, 'rs0')).not.toThrow();
  });
  test('a command that takes no writeConcern refuses one, even empty; null is absent', () => {
    expect(run({ writeConcern: {} }, { writeConcern: false })).toEqual([72, 'Command does not support writeConcern']);
    expect(() => checkGenericConcerns('count', 'count', { writeConcern: null }, { writeConcern: false }, null)).not.toThrow();
  });
  test("a standalone refuses w above 1 and modes other than majority", () => {
    expect(run({ writeConcern: { w: 2 } }, { writeConcern: true })).toEqual([2, "cannot use 'w' > 1 when a host is not replicated"]);
    expect(run({ writeConcern: { w: null } }, { writeConcern: true })).toEqual([2, 'cannot use non-majority \'w\' mode "" when a host is not a member of a replica set']);
    expect(() => checkGenericConcerns('aggregate', 'aggregate', { writeConcern: { w: 'majority' } }, { writeConcern: true }, null)).not.toThrow();
  });
});
