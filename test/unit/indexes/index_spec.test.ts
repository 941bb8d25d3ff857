import { describe, expect, test } from 'vitest';
import { CommandError } from '../../../src/errors/command_error.js';
import { checkIndexCapacity, matchExistingIndex, normaliseIndexSpec } from '../../../src/storage/indexes/index_spec.js';

function failure(fn: () => unknown): [number, string, string] {
  try {
    fn();
  } catch (e) {
    if (e instanceof CommandError) return [e.code, e.codeName, e.message];
    throw e;
  }
  throw new Error('expected an error');
}

describe('normaliseIndexSpec', () => {
  test('stored as { v, key, name, ...options }, booleans normalised, hidden: false dropped', () => {
    expect(normaliseIndexSpec({ key: { a: 1 }, name: 'a_1' })).toEqual({ v: 2, key: { a: 1 }, name: 'a_1' });
    expect(normaliseIndexSpec({ key: { a: 1 }, name: 'a_1', v: 1, unique: 1, sparse: 0, hidden: false, background: true })).toEqual({
      v: 1,
      key: { a: 1 },
      name: 'a_1',
      unique: true,
      sparse: false,
    });
  });

  test('collation is spelled out with ICU defaults, and the simple collation is dropped', () => {
    expect(normaliseIndexSpec({ key: { s: 1 }, name: 's', collation: { locale: 'en', strength: 2 } }).collation).toEqual({
      locale: 'en',
      caseLevel: false,
      caseFirst: 'off',
      strength: 2,
      numericOrdering: false,
      alternate: 'non-ignorable',
      maxVariable: 'punct',
      normalization: false,
      backwards: false,
      version: '57.1',
    });
    expect(normaliseIndexSpec({ key: { s: 1 }, name: 's', collation: { locale: 'simple' } })).toEqual({ v: 2, key: { s: 1 }, name: 's' });
    expect(failure(() => normaliseIndexSpec({ key: { s: 1 }, name: 'ix', collation: { locale: 'EN' } }))).toEqual([
      2,
      'BadValue',
      'failed to add collation information to index spec for index creation: { key: { s: 1 }, name: "ix", collation: { locale: "EN" }, v: 2 } :: caused by :: Field \'locale\' is invalid in: { locale: "EN" }. Did you mean \'en\'?',
    ]);
    expect(failure(() => normaliseIndexSpec({ key: { s: 1 }, name: 'ix', collation: {} }))).toEqual([
      2,
      'BadValue',
      'Error in specification { key: { s: 1 }, name: "ix", collation: {} } :: caused by :: The field \'collation\' cannot be an empty object.',
    ]);
  });

  test('text indexes take mongod\'s normalised key and options; 2dsphere gets its version', () => {
    expect(normaliseIndexSpec({ key: { title: 'text', body: 'text' }, name: 't' })).toEqual({
      v: 2,
      key: { _fts: 'text', _ftsx: 1 },
      name: 't',
      weights: { body: 1, title: 1 },
      default_language: 'english',
      language_override: 'language',
      textIndexVersion: 3,
    });
    expect(normaliseIndexSpec({ key: { loc: '2dsphere' }, name: 'loc_2dsphere' })).toEqual({
      v: 2,
      key: { loc: '2dsphere' },
      name: 'loc_2dsphere',
      '2dsphereIndexVersion': 3,
    });
  });

  test('key pattern errors (67) inside "Error in specification"', () => {
    expect(failure(() => normaliseIndexSpec({ key: { a: 0 }, name: 'x' }))).toEqual([
      67,
      'CannotCreateIndex',
      'Error in specification { key: { a: 0 }, name: "x" } :: caused by :: Values in the index key pattern cannot be 0.',
    ]);
    expect(failure(() => normaliseIndexSpec({ key: { a: 'nope' }, name: 'x' }))[2]).toBe(
      'Error in specification { key: { a: "nope" }, name: "x" } :: caused by :: Unknown index plugin \'nope\'',
    );
    expect(failure(() => normaliseIndexSpec({ key: { a: 'hashed', b: 'text' }, name: 'x' }))[2]).toMatch(/Can't use more than one index plugin for a single index\.$/);
    expect(failure(() => normaliseIndexSpec({ key: { $a: 1 }, name: 'x' }))[2]).toMatch(/Index key contains an illegal field name: field name starts with '\$'\.$/);
    expect(failure(() => normaliseIndexSpec({ key: {}, name: 'x' }))[2]).toMatch(/Index keys cannot be empty\.$/);
  });

  test('option errors: 197 unknown, 14 types, 9 missing, 67 combinations, 16764 unique hashed', () => {
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 }, name: 'x', foo: 1 }))).toEqual([
      197,
      'InvalidIndexSpecificationOption',
      'Error in specification { key: { a: 1 }, name: "x", foo: 1 } :: caused by :: The field \'foo\' is not valid for an index specification. Specification: { key: { a: 1 }, name: "x", foo: 1 }',
    ]);
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 }, name: 'x', hidden: 1 }))[2]).toMatch(/The field 'hidden' must be a bool, but got int$/);
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 }, name: 'x', unique: 'yes' }))[2]).toMatch(
      /The field 'unique has value unique: "yes", which is not convertible to bool$/,
    );
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 } }))[0]).toBe(9);
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 }, name: 'x', sparse: true, partialFilterExpression: { a: 1 } }))).toEqual([
      67,
      'CannotCreateIndex',
      'Error in specification { key: { a: 1 }, name: "x", sparse: true, partialFilterExpression: { a: 1 }, v: 2 } :: caused by :: cannot mix "partialFilterExpression" and "sparse" options',
    ]);
    expect(failure(() => normaliseIndexSpec({ key: { a: 'hashed' }, name: 'x', unique: true }))).toEqual([
      16764,
      'Location16764',
      'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.',
    ]);
    expect(failure(() => normaliseIndexSpec({ key: { a: 1 }, name: '*' }))).toEqual([2, 'BadValue', "The index name '*' is not valid."]);
    expect(failure(() => normaliseIndexSpec({ key: { _id: 1 }, name: 'x', unique: true }))).toEqual([
      197,
      'InvalidIndexSpecificationOption',
      "The field 'unique' is not valid for an _id index specification. Specification: { v: 2, key: { _id: 1 }, name: \"x\", unique: true }",
    ]);
  });

  test('partial filters allow only mongod\'s operators (67 with its debug rendering)', () => {
    const partial = (filter: Record<string, unknown>) => failure(() => normaliseIndexSpec({ key: { k: 1 }, name: 'k', partialFilterExpression: filter }));
    const tail = (filter: Record<string, unknown>) => {
      const [code, , message] = partial(filter);
      return [code, message.slice(message.indexOf(':: caused by :: ') + 16)];
    };
    expect(tail({ a: { $ne: 1 } })).toEqual([67, 'Expression not supported in partial index: $not\n    a $eq 1\n']);
    expect(tail({ a: { $nin: [1] } })).toEqual([67, 'Expression not supported in partial index: $not\n    a $in [ 1]\n']);
    expect(tail({ a: { $not: { $gt: 1 } } })).toEqual([67, 'Expression not supported in partial index: $not\n    $and\n        a $gt 1\n']);
    expect(tail({ $nor: [{ a: 1 }] })).toEqual([67, 'Expression not supported in partial index: $nor\n    a $eq 1\n']);
    expect(tail({ a: { $exists: false } })).toEqual([67, 'Expression not supported in partial index: $not\n    a exists\n']);
    expect(tail({ a: { $regex: 'x' } })).toEqual([67, 'Expression not supported in partial index: a regex /x/\n']);
    expect(tail({ a: { $mod: [2, 0] } })).toEqual([67, 'Expression not supported in partial index: a mod 2 % x == 0\n']);
    expect(tail({ a: { $size: 2 } })).toEqual([67, 'Expression not supported in partial index: a $size : 2\n']);
    expect(tail({ a: { $elemMatch: { $gt: 1 } } })).toEqual([67, 'Expression not supported in partial index: a $elemMatch (value)\n     $gt 1\n']);
    expect(tail({ $or: [{ a: { $ne: 1 } }] })).toEqual([67, 'Expression not supported in partial index: $not\n    a $eq 1\n']);
    expect(tail({ $expr: { $eq: ['$a', 1] } })).toEqual([224, '$expr is not allowed in this context']);
    expect(tail({ $where: '1' })).toEqual([2, '$where is not allowed in this context']);
    for (const ok of [{ a: { $exists: true } }, { a: { $in: [1, 2] } }, { a: { $type: 'string' } }, { $or: [{ a: 1 }, { b: { $gt: 2 } }] }, { a: { $gte: 1, $lt: 5 } }, { a: null }]) {
      expect(normaliseIndexSpec({ key: { k: 1 }, name: 'k', partialFilterExpression: ok }).partialFilterExpression).toEqual(ok);
    }
  });
});

describe('matchExistingIndex (compareIndexOptions)', () => {
  const a1 = { v: 2, key: { a: 1 }, name: 'a_1' };
  test('identical: exists; same name with other identifying options: 86; other options: 85', () => {
    expect(matchExistingIndex({ v: 2, key: { a: 1.0 }, name: 'a_1' }, [a1])).toEqual({ kind: 'exists' });
    expect(failure(() => matchExistingIndex({ v: 2, key: { a: 1 }, name: 'a_1', unique: true }, [a1]))[0]).toBe(86);
    expect(failure(() => matchExistingIndex({ v: 2, key: { b: 1 }, name: 'a_1' }, [a1]))[0]).toBe(86);
    expect(failure(() => matchExistingIndex({ v: 2, key: { a: 1 }, name: 'a_1', hidden: true }, [a1]))).toEqual([
      85,
      'IndexOptionsConflict',
      'An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { a: 1 }, name: "a_1", hidden: true }, existing index: { v: 2, key: { a: 1 }, name: "a_1" }',
    ]);
    expect(failure(() => matchExistingIndex({ v: 2, key: { a: 1 }, name: 'other' }, [a1]))).toEqual([
      85,
      'IndexOptionsConflict',
      'Index already exists with a different name: a_1',
    ]);
    expect(failure(() => matchExistingIndex({ v: 2, key: { a: 1 }, name: 'other', hidden: true }, [a1]))[2]).toMatch(
      /^An equivalent index already exists with a different name and options\./,
    );
  });

  test('unique, sparse, partial filter and collation make another index on the same key', () => {
    expect(matchExistingIndex({ v: 2, key: { a: 1 }, name: 'u', unique: true }, [a1])).toEqual({ kind: 'new' });
    expect(matchExistingIndex({ v: 2, key: { a: 1 }, name: 's', sparse: true }, [a1])).toEqual({ kind: 'new' });
    expect(matchExistingIndex({ v: 2, key: { a: 1 }, name: 'p', partialFilterExpression: { b: 1 } }, [a1])).toEqual({ kind: 'new' });
  });

  test('at most 64 indexes; one text index', () => {
    const many = Array.from({ length: 64 }, (_, i) => ({ v: 2, key: { [`f${i}`]: 1 }, name: `f${i}` }));
    expect(failure(() => checkIndexCapacity({ v: 2, key: { z: 1 }, name: 'z' }, many, 'db.c'))).toEqual([
      67,
      'CannotCreateIndex',
      'add index fails, too many indexes for db.c key:{ z: 1 }',
    ]);
    const text = { v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 'a_text', weights: { a: 1 } };
    expect(failure(() => checkIndexCapacity({ v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 'b_text' }, [text], 'db.c'))[2]).toBe(
      'only one text index per collection allowed, found existing text index "a_text"',
    );
  });
});
