/** The IDL argument helpers: the order checks run in (the generic concerns: read_write_concern.test.ts). */
import { describe, expect, test } from 'vitest';
import { IdlRules, validateArguments } from '../../../src/commands/args.js';
import type { CommandDefinition } from '../../../src/commands/types.js';
import { errorOf } from '../thrown.js';


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
    ['then the generic maxTimeMS', { probe: 'c', maxTimeMS: 'x', need: 'x' }, [14, "BSON field 'probe.maxTimeMS' is the wrong type 'string', expected types '[long, int, decimal, double']"]],
    ['a declared readConcern is the IDL type', { probe: 'c', readConcern: 1, need: 'x' }, [14, "BSON field 'probe.readConcern' is the wrong type 'int', expected type 'object'"]],
    ['then the generic readConcern', { probe: 'c', readConcern: { level: 'x' }, need: 'x' }, [2, "Enumeration value 'x' for field 'readConcern.level' is not a valid value."]],
  ];
  for (const [name, cmd, expected] of cases) {
    test(name, () => expect(errorOf(() => validateArguments(def, cmd, 'probe'))).toEqual(expected));
  }
  test('null reads as absent for plain and safeInt64 fields; comment is anything', () => {
    expect(() => validateArguments(def, { probe: 'c', need: 'x', n: null, comment: { a: [1] }, readConcern: null, maxTimeMS: null }, 'probe')).not.toThrow();
  });
});
