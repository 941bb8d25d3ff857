/** The IDL argument helpers: numeric conversions, maxTimeMS, and the order checks run in. */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { IdlRules, parseMaxTimeMS, validateArguments } from '../../../src/commands/args.js';
import type { CommandDefinition } from '../../../src/commands/types.js';
import { errorOf } from '../thrown.js';


describe('parseMaxTimeMS', () => {
  test('accepts integral numbers of every type within int32', () => {
    expect([parseMaxTimeMS(0), parseMaxTimeMS(new Double(5)), parseMaxTimeMS(Long.fromNumber(2147483647)), parseMaxTimeMS(Decimal128.fromString('10'))]).toEqual([0, 5, 2147483647, 10]);
  });
  const cases: Array<[string, unknown, string]> = [
    ['a string', 'x', 'maxTimeMS must be a number'],
    ['null', null, 'maxTimeMS must be a number'],
    ['a bool', true, 'maxTimeMS must be a number'],
    ['a negative number (range before integrality)', -1.5, '-1 value for maxTimeMS is out of range [0, 2147483647]'],
    ['beyond int32', 2147483648, '2147483648 value for maxTimeMS is out of range [0, 2147483647]'],
    ['a fraction', 10.25, 'maxTimeMS has non-integral value'],
  ];
  for (const [name, value, message] of cases) {
    test(name, () => expect(errorOf(() => parseMaxTimeMS(value))).toEqual([2, message]));
  }
});

describe('validateArguments', () => {
  const def: CommandDefinition = {
    name: 'probe',
    target: { type: 'string' },
    args: {
      need: { type: 'string', required: true },
      n: IdlRules.nonNegativeInt64,
      o: IdlRules.ownedObject,
      flag: IdlRules.optionalBool,
      readConcern: { type: 'object' },
    },
    help: '',
    run: () => ({}),
  };
  const cases: Array<[string, Record<string, unknown>, [number, string]]> = [
    ['fields in the order they arrive (n first)', { probe: 'c', n: -1, o: 1, need: 'x' }, [51024, "BSON field 'n' value must be >= 0, actual value '-1'"]],
    ['fields in the order they arrive (o first)', { probe: 'c', o: 1, n: -1, need: 'x' }, [14, 'Expected field oto be of type object']],
    ['an unknown field in its place', { probe: 'c', zz: 1, n: -1 }, [40415, "BSON field 'probe.zz' is an unknown field."]],
    ['missing fields after every present one', { probe: 'c', flag: 1 }, [14, "Field 'flag' should be a boolean value, but found: int"]],
    ['then the missing field', { probe: 'c', n: 1 }, [40414, "BSON field 'probe.need' is missing but a required field"]],
    ['then the generic maxTimeMS', { probe: 'c', maxTimeMS: 'x', need: 'x' }, [2, 'maxTimeMS must be a number']],
    ['a declared readConcern is the IDL type', { probe: 'c', readConcern: 1, need: 'x' }, [14, "BSON field 'probe.readConcern' is the wrong type 'int', expected type 'object'"]],
    ['a null readConcern passes the IDL, not ReadConcernArgs', { probe: 'c', readConcern: null, need: 'x' }, [9, 'readConcern field should be an object']],
  ];
  for (const [name, cmd, expected] of cases) {
    test(name, () => expect(errorOf(() => validateArguments(def, cmd, 'probe'))).toEqual(expected));
  }
  test('null reads as absent for plain and safeInt64 fields; comment is anything', () => {
    expect(() => validateArguments(def, { probe: 'c', need: 'x', n: null, comment: { a: [1] } }, 'probe')).not.toThrow();
  });
});
