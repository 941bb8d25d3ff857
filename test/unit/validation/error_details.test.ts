/**
 * errInfo.details of document validation, one row per operator or keyword: the validator, the
 * failing document, and the details mongod's doc_validation_error builds.
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { validationErrorDetails } from '../../../src/storage/validation/error_details.js';
import { compileValidator } from '../../../src/storage/validation/validator.js';

type Row = [string, Document, Document, Document];
const run = (rows: Row[]) =>
  test.each(rows)('%s', (_name, validator, doc, details) => {
    expect(compileValidator(validator).matches(doc, 0)).toBe(false);
    expect(validationErrorDetails(validator, doc, 0)).toEqual(details);
  });

describe('query operators', () => {
  run([
    ['implicit $eq', { s: 'A' }, { s: 'B' }, { operatorName: '$eq', specifiedAs: { s: 'A' }, reason: 'comparison failed', consideredValue: 'B' }],
    ['$lte, path missing', { a: { $lte: 3 } }, {}, { operatorName: '$lte', specifiedAs: { a: { $lte: 3 } }, reason: 'field was missing' }],
    ['an array is traversed', { a: { $gt: 5 } }, { a: [1, 2] }, { operatorName: '$gt', specifiedAs: { a: { $gt: 5 } }, reason: 'comparison failed', consideredValues: [1, 2] }],
    ['dotted path through an array', { 'a.b': 1 }, { a: [{ b: 2 }, { b: 3 }] }, { operatorName: '$eq', specifiedAs: { 'a.b': 1 }, reason: 'comparison failed', consideredValues: [2, 3] }],
    ['$ne', { a: { $ne: 1 } }, { a: 1 }, { operatorName: '$ne', specifiedAs: { a: { $ne: 1 } }, reason: 'comparison succeeded', consideredValue: 1 }],
    ['$nin', { a: { $nin: [1, 2] } }, { a: 2 }, { operatorName: '$nin', specifiedAs: { a: { $nin: [1, 2] } }, reason: 'matching value found in array', consideredValue: 2 }],
    ['$exists: false', { a: { $exists: false } }, { a: null }, { operatorName: '$exists', specifiedAs: { a: { $exists: false } }, reason: 'path does exist' }],
    [
      '$mod on a string: type mismatch',
      { a: { $mod: [2, 0] } },
      { a: 'x' },
      { operatorName: '$mod', specifiedAs: { a: { $mod: [2, 0] } }, reason: 'type did not match', consideredType: 'string', expectedTypes: ['decimal', 'double', 'int', 'long'], consideredValue: 'x' },
    ],
    ['$mod', { a: { $mod: [2, 0] } }, { a: 3 }, { operatorName: '$mod', specifiedAs: { a: { $mod: [2, 0] } }, reason: '$mod did not evaluate to expected remainder', consideredValue: 3 }],
    ['$size', { a: { $size: 2 } }, { a: [1] }, { operatorName: '$size', specifiedAs: { a: { $size: 2 } }, reason: 'array length was not equal to given size', consideredValue: [1] }],
    [
      '$size on a scalar',
      { a: { $size: 2 } },
      { a: 1 },
      { operatorName: '$size', specifiedAs: { a: { $size: 2 } }, reason: 'type did not match', consideredType: 'int', expectedType: 'array', consideredValue: 1 },
    ],
    [
      '$elemMatch',
      { a: { $elemMatch: { $gt: 5 } } },
      { a: [1, 2] },
      { operatorName: '$elemMatch', specifiedAs: { a: { $elemMatch: { $gt: 5 } } }, reason: 'array did not satisfy the child predicate', consideredValue: [1, 2] },
    ],
    ['$all', { a: { $all: [1, 3] } }, { a: [1, 2] }, { operatorName: '$all', specifiedAs: { a: { $all: [1, 3] } }, reason: 'array did not contain all specified values', consideredValue: [1, 2] }],
    ['$regex with $options', { a: { $regex: '^x', $options: 'i' } }, { a: 'yz' }, { operatorName: '$regex', specifiedAs: { a: { $regex: '^x', $options: 'i' } }, reason: 'regular expression did not match', consideredValue: 'yz' }],
    [
      '$bitsAllSet',
      { a: { $bitsAllSet: 3 } },
      { a: 4 },
      { operatorName: '$bitsAllSet', specifiedAs: { a: { $bitsAllSet: 3 } }, reason: 'bitwise operator failed to match', consideredValue: 4 },
    ],
    [
      '$type over array elements',
      { a: { $type: 'string' } },
      { a: [1, 2.5] },
      { operatorName: '$type', specifiedAs: { a: { $type: 'string' } }, reason: 'type did not match', consideredValues: [1, 2.5], consideredTypes: ['double', 'int'] },
    ],
    ['$alwaysFalse', { $alwaysFalse: 1 }, {}, { operatorName: '$alwaysFalse', specifiedAs: { $alwaysFalse: 1 }, reason: 'expression always evaluates to false' }],
    [
      'two operators on one field form an $and',
      { a: { $gte: 0, $lte: 10 } },
      { a: 11 },
      { operatorName: '$and', clausesNotSatisfied: [{ index: 1, details: { operatorName: '$lte', specifiedAs: { a: { $lte: 10 } }, reason: 'comparison failed', consideredValue: 11 } }] },
    ],
    [
      'explicit $and lists the failing clauses only',
      { $and: [{ a: 1 }, { b: 2 }] },
      { a: 1, b: 3 },
      { operatorName: '$and', clausesNotSatisfied: [{ index: 1, details: { operatorName: '$eq', specifiedAs: { b: 2 }, reason: 'comparison failed', consideredValue: 3 } }] },
    ],
    [
      '$nor lists the clauses that matched',
      { $nor: [{ a: 1 }, { b: 2 }] },
      { a: 1, b: 3 },
      { operatorName: '$nor', clausesNotSatisfied: [{ index: 0, details: { operatorName: '$eq', specifiedAs: { a: 1 }, reason: 'comparison succeeded', consideredValue: 1 } }] },
    ],
    [
      '$not of $or: the clauses that matched',
      { a: { $not: { $in: [1, 2] } } },
      { a: 1 },
      { operatorName: '$not', details: { operatorName: '$in', specifiedAs: { a: { $in: [1, 2] } }, reason: 'matching value found in array', consideredValue: 1 } },
    ],
    [
      '$expr with a missing result',
      { $expr: '$nope' },
      {},
      { operatorName: '$expr', specifiedAs: { $expr: '$nope' }, reason: 'expression did not match' },
    ],
  ]);
});

describe('$jsonSchema keywords', () => {
  const rule = (schema: Document, doc: Document): Document[] => (validationErrorDetails({ $jsonSchema: schema }, doc, 0).schemaRulesNotSatisfied as Document[]);

  test.each<[string, Document, Document, Document[]]>([
    ['bsonType of the document', { bsonType: 'array' }, { a: 1 }, [{ operatorName: 'bsonType', specifiedAs: { bsonType: 'array' }, reason: 'type did not match', consideredValue: { a: 1 }, consideredType: 'object' }]],
    ['required (sorted)', { required: ['z', 'a', 'm'] }, { m: 1 }, [{ operatorName: 'required', specifiedAs: { required: ['z', 'a', 'm'] }, missingProperties: ['a', 'z'] }]],
    ['minProperties', { minProperties: 3 }, { a: 1 }, [{ operatorName: 'minProperties', specifiedAs: { minProperties: 3 }, reason: 'specified number of properties was not satisfied', numberOfProperties: 1 }]],
    [
      'dependencies',
      { dependencies: { a: ['b', 'c'], d: { required: ['e'] } } },
      { a: 1, c: 1, d: 1 },
      [
        {
          operatorName: 'dependencies',
          failingDependencies: [
            { conditionalProperty: 'a', missingProperties: ['b'] },
            { conditionalProperty: 'd', details: [{ operatorName: 'required', specifiedAs: { required: ['e'] }, missingProperties: ['e'] }] },
          ],
        },
      ],
    ],
    [
      'additionalProperties with a schema',
      { properties: { a: {} }, additionalProperties: { bsonType: 'int' } },
      { a: 'x', b: 1, c: 'y' },
      [
        {
          operatorName: 'additionalProperties',
          reason: 'at least one additional property did not match the subschema',
          failingProperty: 'c',
          details: [{ operatorName: 'bsonType', specifiedAs: { bsonType: 'int' }, reason: 'type did not match', consideredValue: 'y', consideredType: 'string' }],
        },
      ],
    ],
    [
      'patternProperties',
      { patternProperties: { '^n_': { bsonType: 'number' } } },
      { n_a: 1, n_b: 'x' },
      [
        {
          operatorName: 'patternProperties',
          details: [
            { propertyName: 'n_b', regexMatched: '^n_', details: [{ operatorName: 'bsonType', specifiedAs: { bsonType: 'number' }, reason: 'type did not match', consideredValue: 'x', consideredType: 'string' }] },
          ],
        },
      ],
    ],
    [
      'anyOf',
      { anyOf: [{ required: ['a'] }, { required: ['b'], title: 'has b' }] },
      { c: 1 },
      [
        {
          operatorName: 'anyOf',
          schemasNotSatisfied: [
            { index: 0, details: [{ operatorName: 'required', specifiedAs: { required: ['a'] }, missingProperties: ['a'] }] },
            { index: 1, title: 'has b', details: [{ operatorName: 'required', specifiedAs: { required: ['b'] }, missingProperties: ['b'] }] },
          ],
        },
      ],
    ],
    ['oneOf with two matches', { oneOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1, b: 1 }, [{ operatorName: 'oneOf', reason: 'more than one subschema matched', matchingSchemaIndexes: [0, 1] }]],
    ['not', { not: { required: ['a'] } }, { a: 1 }, [{ operatorName: 'not', reason: 'child expression matched' }]],
  ])('%s', (_name, schema, doc, rules) => {
    expect(rule(schema, doc)).toEqual(rules);
  });

  test.each<[string, Document, unknown, Document]>([
    ['minLength', { minLength: 3 }, 'ab', { operatorName: 'minLength', specifiedAs: { minLength: 3 }, reason: 'specified string length was not satisfied', consideredValue: 'ab' }],
    ['maxLength', { maxLength: 1 }, 'ab', { operatorName: 'maxLength', specifiedAs: { maxLength: 1 }, reason: 'specified string length was not satisfied', consideredValue: 'ab' }],
    ['pattern', { pattern: '^a' }, 'b', { operatorName: 'pattern', specifiedAs: { pattern: '^a' }, reason: 'regular expression did not match', consideredValue: 'b' }],
    ['multipleOf', { multipleOf: 2 }, 3, { operatorName: 'multipleOf', specifiedAs: { multipleOf: 2 }, reason: 'considered value is not a multiple of the specified value', consideredValue: 3 }],
    ['exclusiveMaximum', { maximum: 3, exclusiveMaximum: true }, 3, { operatorName: 'maximum', specifiedAs: { maximum: 3, exclusiveMaximum: true }, reason: 'comparison failed', consideredValue: 3 }],
    ['enum', { enum: [1, 2] }, 3, { operatorName: 'enum', specifiedAs: { enum: [1, 2] }, reason: 'value was not found in enum', consideredValue: 3 }],
    ['maxItems', { maxItems: 1 }, [1, 2], { operatorName: 'maxItems', specifiedAs: { maxItems: 1 }, reason: 'array did not match specified length', consideredValue: [1, 2], numberOfItems: 2 }],
    ['uniqueItems', { uniqueItems: true }, [1, 2, 1], { operatorName: 'uniqueItems', specifiedAs: { uniqueItems: true }, reason: 'found a duplicate item', consideredValue: [1, 2, 1], duplicatedValue: 1 }],
    ['additionalItems: false', { items: [{}], additionalItems: false }, [1, 2, 3], { operatorName: 'additionalItems', specifiedAs: { additionalItems: false }, reason: 'found additional items', additionalItems: [2, 3] }],
  ])('%s (in a property)', (_name, schema, value, detail) => {
    expect(rule({ properties: { p: schema } }, { p: value })).toEqual([{ operatorName: 'properties', propertiesNotSatisfied: [{ propertyName: 'p', details: [detail] }] }]);
  });

  test('a nested object reports its own rules; title and description are copied', () => {
    const schema = { title: 'root', properties: { address: { description: 'where', bsonType: 'object', required: ['city'] } } };
    expect(validationErrorDetails({ $jsonSchema: schema }, { address: { zip: 1 } }, 0)).toEqual({
      operatorName: '$jsonSchema',
      title: 'root',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'properties',
          propertiesNotSatisfied: [{ propertyName: 'address', description: 'where', details: [{ operatorName: 'required', specifiedAs: { required: ['city'] }, missingProperties: ['city'] }] }],
        },
      ],
    });
  });

  test('$jsonSchema negated: schema matched', () => {
    expect(validationErrorDetails({ $nor: [{ $jsonSchema: { required: ['a'] } }] }, { a: 1 }, 0)).toEqual({
      operatorName: '$nor',
      clausesNotSatisfied: [{ index: 0, details: { operatorName: '$jsonSchema', reason: 'schema matched' } }],
    });
  });
});
