/**
 * Updates under a collation (mongod's update nodes take the operation's collator): `$pull`,
 * `$pullAll`, `$addToSet`, `$push`'s `$sort`, `$min`/`$max`, `arrayFilters`, the positional `$`
 * and a pipeline update's expressions. Each case also runs without a collator (binary).
 */
import { describe, expect, it } from 'vitest';
import { ObjectId, type Document } from '../../../src/bson/library.js';
import { collatorOf, normaliseCollation } from '../../../src/storage/indexes/collation.js';
import { buildUpsertDocument, compileUpdate } from '../../../src/storage/update/compile_update.js';
import { compilePositionalMatcher } from '../../../src/storage/query/positional_match.js';
import type { Collator } from '../../../src/storage/values/collator.js';
import { expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_123);

/** A fresh collator for a collation spec, as a command gets one. */
function collator(spec: Document): Collator {
  return collatorOf(normaliseCollation(spec))!;
}

const CI = { locale: 'en', strength: 2 };
const BASE = { locale: 'en', strength: 1 };
const EN = { locale: 'en' };
const NUMERIC = { locale: 'en', numericOrdering: true };

/** [name, collation, document, update, arrayFilters, with the collation, binary]. */
type Case = [string, Document, Document, Document | Document[], Document[] | undefined, Document, Document];

function table(cases: Case[]): void {
  for (const [name, spec, doc, update, arrayFilters, collated, binary] of cases) {
    it(name, () => {
      const withCollation = compileUpdate(update, { arrayFilters, collator: collator(spec) }).apply(doc, { now: NOW, isUpsertInsert: false });
      expectExact(withCollation.doc, collated);
      expect(withCollation.modified).toBe(JSON.stringify(collated) !== JSON.stringify(doc));
      const simple = compileUpdate(update, { arrayFilters }).apply(doc, { now: NOW, isUpsertInsert: false });
      expectExact(simple.doc, binary);
      expect(simple.modified).toBe(JSON.stringify(binary) !== JSON.stringify(doc));
    });
  }
}

describe('$pull under a collation', () => {
  table([
    ["a value: 'A' removes 'a' at strength 2", CI, { _id: 1, a: ['a', 'A', 'b'] }, { $pull: { a: 'A' } }, undefined, { _id: 1, a: ['b'] }, { _id: 1, a: ['a', 'b'] }],
    ['a value: accents count at strength 2', CI, { _id: 1, a: ['e', 'é'] }, { $pull: { a: 'E' } }, undefined, { _id: 1, a: ['é'] }, { _id: 1, a: ['e', 'é'] }],
    ['a value: strength 1 ignores accents too', BASE, { _id: 1, a: ['e', 'é', 'f'] }, { $pull: { a: 'E' } }, undefined, { _id: 1, a: ['f'] }, { _id: 1, a: ['e', 'é', 'f'] }],
    ['an array value compares its strings under it', CI, { _id: 1, a: [['X', 'y'], ['x']] }, { $pull: { a: ['x', 'Y'] } }, undefined, { _id: 1, a: [['x']] }, { _id: 1, a: [['X', 'y'], ['x']] }],
    ['a condition: $in', CI, { _id: 1, a: ['a', 'b', 'c'] }, { $pull: { a: { $in: ['B', 'C'] } } }, undefined, { _id: 1, a: ['a'] }, { _id: 1, a: ['a', 'b', 'c'] }],
    ['a condition: $gte orders by it', EN, { _id: 1, a: ['a', 'B', 'b'] }, { $pull: { a: { $gte: 'b' } } }, undefined, { _id: 1, a: ['a'] }, { _id: 1, a: ['a', 'B'] }],
    ['a condition: $ne', CI, { _id: 1, a: ['X', 'x', 'y'] }, { $pull: { a: { $ne: 'x' } } }, undefined, { _id: 1, a: ['X', 'x'] }, { _id: 1, a: ['x'] }],
    ['a query on embedded documents', CI, { _id: 1, a: [{ n: 'ann', k: 1 }, { n: 'Bob' }] }, { $pull: { a: { n: 'ANN' } } }, undefined, { _id: 1, a: [{ n: 'Bob' }] }, { _id: 1, a: [{ n: 'ann', k: 1 }, { n: 'Bob' }] }],
    ['a query with $elemMatch', CI, { _id: 1, a: [{ t: ['X'] }, { t: ['y'] }] }, { $pull: { a: { t: { $elemMatch: { $eq: 'x' } } } } }, undefined, { _id: 1, a: [{ t: ['y'] }] }, { _id: 1, a: [{ t: ['X'] }, { t: ['y'] }] }],
    ['a regex is never collated', CI, { _id: 1, a: ['abc', 'ABC'] }, { $pull: { a: /^a/ } }, undefined, { _id: 1, a: ['ABC'] }, { _id: 1, a: ['ABC'] }],
    ['numbers are unaffected', CI, { _id: 1, a: [1, 2] }, { $pull: { a: 1 } }, undefined, { _id: 1, a: [2] }, { _id: 1, a: [2] }],
  ]);
});

describe('$pullAll under a collation', () => {
  table([
    ['removes every element equal to one of the list', CI, { _id: 1, a: ['a', 'B', 'c', 'A'] }, { $pullAll: { a: ['A', 'b'] } }, undefined, { _id: 1, a: ['c'] }, { _id: 1, a: ['a', 'B', 'c'] }],
    ['embedded documents compare their strings under it', CI, { _id: 1, a: [{ k: 'x' }, { k: 'y' }] }, { $pullAll: { a: [{ k: 'X' }] } }, undefined, { _id: 1, a: [{ k: 'y' }] }, { _id: 1, a: [{ k: 'x' }, { k: 'y' }] }],
  ]);
});

describe('$addToSet under a collation', () => {
  table([
    ["'ABC' into ['abc'] is a no-op at strength 2", CI, { _id: 1, a: ['abc'] }, { $addToSet: { a: 'ABC' } }, undefined, { _id: 1, a: ['abc'] }, { _id: 1, a: ['abc', 'ABC'] }],
    ["'é' into ['e'] is a no-op at strength 1 only", BASE, { _id: 1, a: ['e'] }, { $addToSet: { a: 'É' } }, undefined, { _id: 1, a: ['e'] }, { _id: 1, a: ['e', 'É'] }],
    ['$each values are deduplicated under it (the first kept)', CI, { _id: 1, a: ['z'] }, { $addToSet: { a: { $each: ['X', 'x', 'y', 'Z'] } } }, undefined, { _id: 1, a: ['z', 'X', 'y'] }, { _id: 1, a: ['z', 'X', 'x', 'y', 'Z'] }],
    ['a missing field gets the deduplicated values', CI, { _id: 1 }, { $addToSet: { a: { $each: ['Q', 'q', 'r'] } } }, undefined, { _id: 1, a: ['Q', 'r'] }, { _id: 1, a: ['Q', 'q', 'r'] }],
    ['documents are equal when their strings are', CI, { _id: 1, a: [{ k: 'v' }] }, { $addToSet: { a: { k: 'V' } } }, undefined, { _id: 1, a: [{ k: 'v' }] }, { _id: 1, a: [{ k: 'v' }, { k: 'V' }] }],
  ]);
});

describe('$push with $sort under a collation', () => {
  table([
    ['numericOrdering sorts whole elements by number', NUMERIC, { _id: 1, a: ['a9', 'a1'] }, { $push: { a: { $each: ['a10'], $sort: 1 } } }, undefined, { _id: 1, a: ['a1', 'a9', 'a10'] }, { _id: 1, a: ['a1', 'a10', 'a9'] }],
    ['descending', NUMERIC, { _id: 1, a: ['a9', 'a1'] }, { $push: { a: { $each: ['a10'], $sort: -1 } } }, undefined, { _id: 1, a: ['a10', 'a9', 'a1'] }, { _id: 1, a: ['a9', 'a10', 'a1'] }],
    ['a field pattern sorts embedded strings (en: lower case first)', EN, { _id: 1, a: [{ n: 'B' }, { n: 'b' }] }, { $push: { a: { $each: [{ n: 'a' }], $sort: { n: 1 } } } }, undefined, { _id: 1, a: [{ n: 'a' }, { n: 'b' }, { n: 'B' }] }, { _id: 1, a: [{ n: 'B' }, { n: 'a' }, { n: 'b' }] }],
    ['with $slice after the sort', NUMERIC, { _id: 1, a: ['x2', 'x10'] }, { $push: { a: { $each: ['x1'], $sort: 1, $slice: 2 } } }, undefined, { _id: 1, a: ['x1', 'x2'] }, { _id: 1, a: ['x1', 'x10'] }],
  ]);
});

describe('$min and $max under a collation', () => {
  table([
    ["$max of 'é' over 'e' is a no-op at strength 1 (equal)", BASE, { _id: 1, a: 'e' }, { $max: { a: 'é' } }, undefined, { _id: 1, a: 'e' }, { _id: 1, a: 'é' }],
    ["$min of 'e' over 'é' is a no-op at strength 1 (equal)", BASE, { _id: 1, a: 'é' }, { $min: { a: 'e' } }, undefined, { _id: 1, a: 'é' }, { _id: 1, a: 'e' }],
    ["$min of 'B' over 'b': en orders 'b' first, binary 'B'", EN, { _id: 1, a: 'b' }, { $min: { a: 'B' } }, undefined, { _id: 1, a: 'b' }, { _id: 1, a: 'B' }],
    ["$max of 'a10' over 'a9' with numericOrdering", NUMERIC, { _id: 1, a: 'a9' }, { $max: { a: 'a10' } }, undefined, { _id: 1, a: 'a10' }, { _id: 1, a: 'a9' }],
    ['embedded strings compare under it', BASE, { _id: 1, a: { s: 'é' } }, { $max: { a: { s: 'e' } } }, undefined, { _id: 1, a: { s: 'é' } }, { _id: 1, a: { s: 'é' } }],
    ['type order still comes first', BASE, { _id: 1, a: 5 }, { $max: { a: 'a' } }, undefined, { _id: 1, a: 'a' }, { _id: 1, a: 'a' }],
  ]);
});

describe('arrayFilters under a collation', () => {
  table([
    ["{ e: 'X' } matches 'x'", CI, { _id: 1, a: ['x', 'y', 'X'] }, { $set: { 'a.$[e]': 'z' } }, [{ e: 'X' }], { _id: 1, a: ['z', 'y', 'z'] }, { _id: 1, a: ['x', 'y', 'z'] }],
    ['on a field of embedded documents', CI, { _id: 1, a: [{ n: 'ann', v: 1 }, { n: 'bob', v: 1 }] }, { $inc: { 'a.$[p].v': 1 } }, [{ 'p.n': 'ANN' }], { _id: 1, a: [{ n: 'ann', v: 2 }, { n: 'bob', v: 1 }] }, { _id: 1, a: [{ n: 'ann', v: 1 }, { n: 'bob', v: 1 }] }],
    ['a comparison operator', NUMERIC, { _id: 1, a: ['v9', 'v10'] }, { $set: { 'a.$[e]': 'big' } }, [{ e: { $gt: 'v9' } }], { _id: 1, a: ['v9', 'big'] }, { _id: 1, a: ['v9', 'v10'] }],
  ]);
});

describe('a pipeline update under a collation', () => {
  table([
    ['comparison expressions compare under it', CI, { _id: 1, a: 'x' }, [{ $set: { same: { $eq: ['$a', 'X'] } } }], undefined, { _id: 1, a: 'x', same: true }, { _id: 1, a: 'x', same: false }],
  ]);
});

describe('the positional $ under a collation', () => {
  it("the query { a: 'B' } matches 'b' at index 1", () => {
    const doc = { _id: 1, a: ['a', 'b'] };
    const matchedField = compilePositionalMatcher({ a: 'B' }, collator(CI))(doc);
    expect(matchedField).toBe('1');
    expect(compilePositionalMatcher({ a: 'B' })(doc)).toBe(undefined);
    const r = compileUpdate({ $set: { 'a.$': 'c' } }, { collator: collator(CI) }).apply(doc, { now: NOW, isUpsertInsert: false, matchedField });
    expectExact(r.doc, { _id: 1, a: ['a', 'c'] });
  });
  it('$elemMatch and comparisons record the element matched under it', () => {
    const doc = { _id: 1, a: [{ n: 'x' }, { n: 'Y' }], b: ['a9', 'a10'] };
    expect(compilePositionalMatcher({ a: { $elemMatch: { n: 'y' } } }, collator(CI))(doc)).toBe('1');
    expect(compilePositionalMatcher({ b: { $gt: 'a9' } }, collator(NUMERIC))(doc)).toBe('1');
    expect(compilePositionalMatcher({ b: { $gt: 'a9' } })(doc)).toBe(undefined);
  });
});

describe('upserts under a collation', () => {
  it('seeding from the filter and $setOnInsert are unaffected', () => {
    const update = compileUpdate({ $setOnInsert: { x: 'A' }, $addToSet: { t: { $each: ['k', 'K'] } } }, { collator: collator(CI) });
    const doc = buildUpsertDocument({ name: 'Ann', _id: 7 }, update, { now: NOW, isUpsertInsert: true }, () => new ObjectId());
    expectExact(doc, { _id: 7, name: 'Ann', t: ['k'], x: 'A' });
  });
});
