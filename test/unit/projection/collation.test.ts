/**
 * A find projection under the query's collation: `$elemMatch`, the positional `a.$` (the
 * query's match) and expressions compare strings by it; without one, binary.
 */
import { describe, it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { collatorOf, normaliseCollation } from '../../../src/storage/indexes/collation.js';
import { compileProjection } from '../../../src/storage/projection/compile_projection.js';
import type { Collator } from '../../../src/storage/values/collator.js';
import { expectExact } from '../aggregation/helpers.js';

function collator(spec: Document): Collator {
  return collatorOf(normaliseCollation(spec))!;
}

const CI = { locale: 'en', strength: 2 };
const NUMERIC = { locale: 'en', numericOrdering: true };

describe('find projection under a collation', () => {
  // [name, collation, query, projection, document, with the collation, binary]
  const cases: Array<[string, Document, Document, Document, Document, Document, Document]> = [
    ['$elemMatch on scalars', CI, {}, { a: { $elemMatch: { $eq: 'B' } } }, { _id: 1, a: ['a', 'b'] }, { _id: 1, a: ['b'] }, { _id: 1 }],
    ['$elemMatch on embedded documents', CI, {}, { a: { $elemMatch: { n: 'BOB' } } }, { _id: 1, a: [{ n: 'ann' }, { n: 'bob' }] }, { _id: 1, a: [{ n: 'bob' }] }, { _id: 1 }],
    ['$elemMatch with a range (numericOrdering)', NUMERIC, {}, { a: { $elemMatch: { $gt: 'v9' } } }, { _id: 1, a: ['v1', 'v10'] }, { _id: 1, a: ['v10'] }, { _id: 1 }],
    ['the positional a.$ projects what the query matched under it', CI, { a: 'B' }, { 'a.$': 1 }, { _id: 1, a: ['a', 'b', 'B'] }, { _id: 1, a: ['b'] }, { _id: 1, a: ['B'] }],
    ['expressions compare under it', CI, {}, { same: { $eq: ['$s', 'X'] } }, { _id: 1, s: 'x' }, { _id: 1, same: true }, { _id: 1, same: false }],
  ];
  for (const [name, spec, query, projection, doc, collated, binary] of cases) {
    it(name, () => {
      expectExact(compileProjection(projection, { query, collator: collator(spec) })(doc), collated);
      expectExact(compileProjection(projection, { query })(doc), binary);
    });
  }
});
