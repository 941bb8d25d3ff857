import { describe, expect, it } from 'vitest';
import { Double, ObjectId, type Document } from '../../../src/bson/library.js';
import { buildUpsertDocument, compileUpdate } from '../../../src/storage/update/compile_update.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_000);
const CTX = { now: NOW, isUpsertInsert: false };
const NEW_ID = new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1');

describe('replacement updates', () => {
  it('is classified as a replacement', () => {
    expect(compileUpdate({ a: 1 }).kind).toBe('replacement');
  });
  const cases: Array<[string, Document, Document, Document, boolean]> = [
    ['replaces every field, keeping _id first', { _id: 1, a: 1, b: 2 }, { c: 3 }, { _id: 1, c: 3 }, true],
    ['the same content is not a modification', { _id: 1, a: 1 }, { a: 1 }, { _id: 1, a: 1 }, false],
    ['an equal _id in the replacement is accepted', { _id: 1, a: 1 }, { _id: 1, a: 2 }, { _id: 1, a: 2 }, true],
    ['an _id equal under numeric comparison is accepted', { _id: 1, a: 1 }, { _id: new Double(1), a: 1 }, { _id: new Double(1), a: 1 }, true],
    ['the empty replacement keeps only _id', { _id: 1, a: 1 }, {}, { _id: 1 }, true],
    ['nested $-prefixed fields are allowed', { _id: 1 }, { a: { $b: 1 } }, { _id: 1, a: { $b: 1 } }, true],
  ];
  for (const [name, doc, update, expected, modified] of cases) {
    it(name, () => {
      const r = compileUpdate(update).apply(doc, CTX);
      expectExact(r.doc, expected);
      expect(r.modified).toBe(modified);
    });
  }
});

describe('pipeline updates', () => {
  it('is classified as a pipeline', () => {
    expect(compileUpdate([{ $set: { a: 1 } }]).kind).toBe('pipeline');
  });
  const cases: Array<[string, Document, Document[], Document, boolean]> = [
    ['$set with expressions', { _id: 1, a: 1 }, [{ $set: { b: { $add: ['$a', 1] } } }], { _id: 1, a: 1, b: 2 }, true],
    ['$addFields then $unset', { _id: 1, a: 1, b: 2 }, [{ $addFields: { c: '$b' } }, { $unset: ['a', 'b'] }], { _id: 1, c: 2 }, true],
    ['$project dropping _id keeps it', { _id: 1, a: 1, b: 2 }, [{ $project: { _id: 0, b: 1 } }], { _id: 1, b: 2 }, true],
    ['$replaceWith a subdocument', { _id: 1, s: { x: 1 } }, [{ $replaceWith: '$s' }], { _id: 1, x: 1 }, true],
    ['$replaceRoot', { _id: 1, s: { x: 1 } }, [{ $replaceRoot: { newRoot: { y: '$s.x' } } }], { _id: 1, y: 1 }, true],
    ['an unchanged document is not a modification', { _id: 1, a: 1 }, [{ $set: { a: 1 } }], { _id: 1, a: 1 }, false],
    ['$$NOW is the update time', { _id: 1 }, [{ $set: { t: '$$NOW' } }], { _id: 1, t: NOW }, true],
    ['an empty pipeline changes nothing', { _id: 1, a: 1 }, [], { _id: 1, a: 1 }, false],
  ];
  for (const [name, doc, update, expected, modified] of cases) {
    it(name, () => {
      const r = compileUpdate(update).apply(doc, CTX);
      expectExact(r.doc, expected);
      expect(r.modified).toBe(modified);
    });
  }
});

describe('buildUpsertDocument', () => {
  const id = () => NEW_ID;
  const cases: Array<[string, Document, Document | Document[], Document]> = [
    ['seeds equality fields, sorted, and adds a generated _id first', { b: 2, a: 1 }, { $set: { c: 3 } }, { _id: NEW_ID, a: 1, b: 2, c: 3 }],
    ['keeps the filter _id first', { x: 1, _id: 7 }, { $inc: { n: 1 } }, { _id: 7, x: 1, n: 1 }],
    ['applies $setOnInsert', { a: 1 }, { $setOnInsert: { created: true }, $set: { b: 1 } }, { _id: NEW_ID, a: 1, b: 1, created: true }],
    ['ignores non-equality clauses', { a: { $gt: 1 }, b: { $eq: 2 } }, { $set: { c: 1 } }, { _id: NEW_ID, b: 2, c: 1 }],
    ['seeds dotted equality paths', { 'a.b': 1 }, { $set: { c: 1 } }, { _id: NEW_ID, a: { b: 1 }, c: 1 }],
    ['a replacement takes only _id from the filter', { _id: 5, a: 1 }, { b: 2 }, { _id: 5, b: 2 }],
    ['a replacement without a filter _id gets a generated one', { a: 1 }, { b: 2 }, { _id: NEW_ID, b: 2 }],
    ['a replacement with its own _id keeps it first', { a: 1 }, { b: 2, _id: 9 }, { _id: 9, b: 2 }],
    ['a pipeline is applied to the seed', { a: 1 }, [{ $set: { b: { $add: ['$a', 1] } } }], { _id: NEW_ID, a: 1, b: 2 }],
    ['$set of _id is allowed when the filter has none', { a: 1 }, { $set: { _id: 3 } }, { _id: 3, a: 1 }],
  ];
  for (const [name, filter, update, expected] of cases) {
    it(name, () => {
      expectExact(buildUpsertDocument(filter, compileUpdate(update), CTX, id), expected);
    });
  }

  it('refuses to change a filter _id', () => {
    expectCommandError(
      () => buildUpsertDocument({ _id: 1 }, compileUpdate({ $set: { _id: 2 } }), CTX, id),
      66,
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  });
  it('refuses a replacement _id different from the filter _id', () => {
    expectCommandError(
      () => buildUpsertDocument({ _id: 1 }, compileUpdate({ _id: 2 }), CTX, id),
      66,
      "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2",
    );
  });
  it('refuses an array _id', () => {
    expectCommandError(
      () => buildUpsertDocument({}, compileUpdate({ $set: { _id: [1] } }), CTX, id),
      53,
      "The '_id' value cannot be of type array",
    );
  });
});
