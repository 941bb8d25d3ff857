/**
 * Validator parsing (mongod's refusals), validationLevel/validationAction values, and
 * checkDocument's decisions for the strict, moderate and off levels.
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { Collection } from '../../../src/storage/collection.js';
import {
  checkDocument,
  checkValidatorNamespace,
  compileValidator,
  hasActiveValidator,
  parseValidationAction,
  parseValidationLevel,
} from '../../../src/storage/validation/validator.js';
import { errorOf } from '../thrown.js';


const NEAR = [
  5626500,
  '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting geospatial data. If you do not need sort, consider using $geoWithin instead. Check out https://dochub.mongodb.org/core/near-sort-operation and https://dochub.mongodb.org/core/nearSphere-sort-operationfor more details.',
];

describe('compileValidator', () => {
  test.each<[Document, [number, string]]>([
    [{ $where: 'true' }, [2, '$where is not allowed in this context']],
    [{ $and: [{ $where: 'true' }] }, [2, '$where is not allowed in this context']],
    [{ $text: { $search: 'x' } }, [2, '$text is not allowed in this context']],
    [{ $nor: [{ a: 1 }, { $text: { $search: 'x' } }] }, [2, '$text is not allowed in this context']],
    [{ loc: { $near: [0, 0] } }, NEAR as [number, string]],
    [{ loc: { $nearSphere: [0, 0] } }, NEAR as [number, string]],
    [{ a: { $elemMatch: { loc: { $geoNear: [0, 0] } } } }, NEAR as [number, string]],
    [{ a: { $nope: 1 } }, [2, 'unknown operator: $nope']],
    [{ $nope: 1 }, [2, "unknown top level operator: $nope. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."]],
    [{ $jsonSchema: { bsonType: 'nope' } }, [2, 'Unknown type name alias: nope']],
  ])('%j is refused', (validator, expected) => {
    expect(errorOf(() => compileValidator(validator))).toEqual(expected);
  });

  test('$expr reads $$NOW as the time of the check', () => {
    const v = compileValidator({ $expr: { $lt: ['$at', '$$NOW'] } });
    expect(v.matches({ at: new Date(1000) }, 2000)).toBe(true);
    expect(v.matches({ at: new Date(3000) }, 2000)).toBe(false);
    expect(v.matches({ at: new Date(3000) }, 4000)).toBe(true);
  });

  test('levels, actions and namespaces', () => {
    expect(parseValidationLevel('create', 'moderate')).toBe('moderate');
    expect(parseValidationAction('collMod', 'errorAndLog')).toBe('errorAndLog');
    expect(errorOf(() => parseValidationLevel('create', 'never'))).toEqual([2, "Enumeration value 'never' for field 'create.validationLevel' is not a valid value."]);
    expect(errorOf(() => parseValidationAction('collMod', 'ignore'))).toEqual([2, "Enumeration value 'ignore' for field 'collMod.validationAction' is not a valid value."]);
    expect(errorOf(() => checkValidatorNamespace('d', 'system.js', 'u'))).toEqual([72, 'Document validators not allowed on system collection d.system.js']);
    expect(errorOf(() => checkValidatorNamespace('config', 'c', 'u-1'))).toEqual([72, 'Document validators are not allowed on collection config.c with UUID u-1 in the config internal database']);
    expect(() => checkValidatorNamespace('d', 'c', 'u')).not.toThrow();
  });
});

describe('checkDocument', () => {
  const coll = (options: Document) => new Collection('d', 'c', options);
  const validator = { qty: { $gte: 0 } };

  test('no validator, an empty one, or level off: nothing is checked', () => {
    for (const options of [{}, { validator: {} }, { validator, validationLevel: 'off' }]) {
      const c = coll(options);
      expect(hasActiveValidator(c)).toBe(false);
      expect(checkDocument(c, { _id: 1, qty: -1 }, null, 0)).toBeNull();
    }
  });

  test('strict: every write; the failure carries the action and errInfo', () => {
    const c = coll({ validator, validationAction: 'warn' });
    expect(checkDocument(c, { _id: 1, qty: 1 }, null, 0)).toBeNull();
    expect(checkDocument(c, { _id: 1, qty: -1 }, { _id: 1, qty: -2 }, 0)).toEqual({
      action: 'warn',
      errInfo: { failingDocumentId: 1, details: { operatorName: '$gte', specifiedAs: { qty: { $gte: 0 } }, reason: 'comparison failed', consideredValue: -1 } },
    });
  });

  test('moderate: an update of a document that already fails passes', () => {
    const c = coll({ validator, validationLevel: 'moderate' });
    expect(checkDocument(c, { _id: 1, qty: -1 }, { _id: 1, qty: -2 }, 0)).toBeNull();
    expect(checkDocument(c, { _id: 1, qty: -1 }, { _id: 1, qty: 2 }, 0)?.action).toBe('error');
    expect(checkDocument(c, { _id: 1, qty: -1 }, null, 0)?.action).toBe('error');
  });

  test('a collMod (new options document) recompiles the validator', () => {
    const c = coll({ validator });
    expect(checkDocument(c, { _id: 1, qty: -1 }, null, 0)).not.toBeNull();
    c.options = { validator: { qty: { $lt: 0 } } };
    expect(checkDocument(c, { _id: 1, qty: -1 }, null, 0)).toBeNull();
  });
});
