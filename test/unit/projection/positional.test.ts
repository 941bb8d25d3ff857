import { describe, it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { compileProjection } from '../../../src/storage/projection/compile_projection.js';
import { parseProjection } from '../../../src/storage/projection/projection_ast.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

describe('find projection: positional a.$', () => {
  const cases: Array<[string, Document, Document, Document, Document]> = [
    ['projects the element the query matched', { a: 2 }, { _id: 1, a: [1, 2, 3], b: 1 }, { 'a.$': 1 }, { _id: 1, a: [2] }],
    ['with a comparison', { a: { $gte: 2 } }, { _id: 1, a: [1, 2, 3] }, { 'a.$': 1 }, { _id: 1, a: [2] }],
    ['into an array of documents', { 'a.b': 5 }, { _id: 1, a: [{ b: 1 }, { b: 5, c: 2 }] }, { 'a.$': 1 }, { _id: 1, a: [{ b: 5, c: 2 }] }],
    ['with $elemMatch in the query', { a: { $elemMatch: { b: 1, c: 2 } } }, { _id: 1, a: [{ b: 1, c: 1 }, { b: 1, c: 2 }] }, { 'a.$': 1 }, { _id: 1, a: [{ b: 1, c: 2 }] }],
    ['a dotted path to the array', { 'x.a': 3 }, { _id: 1, x: { a: [1, 3], k: 0 } }, { 'x.a.$': 1 }, { _id: 1, x: { a: [3] } }],
    ['alongside other inclusions, _id excluded', { a: 3 }, { _id: 1, a: [3], b: 2, c: 3 }, { b: 1, 'a.$': 1, _id: 0 }, { a: [3], b: 2 }],
    ['a field that is not an array is left as included', { a: 1 }, { _id: 1, a: 1 }, { 'a.$': 1 }, { _id: 1, a: 1 }],
    ['a missing field is left out', { b: 1 }, { _id: 1, b: 1 }, { 'a.$': 1 }, { _id: 1 }],
  ];
  for (const [name, query, doc, spec, expected] of cases) {
    it(name, () => expectExact(compileProjection(spec, { query })(doc), expected));
  }

  it('an array with no position from the query is 51246', () => {
    expectCommandError(() => compileProjection({ 'a.$': 1 }, { query: { _id: 1 } })({ _id: 1, a: [1, 2] }), 51246, "positional operator '.$' couldn't find a matching element in the array");
  });
  it('a position past the end of the projected array is 51247', () => {
    expectCommandError(() => compileProjection({ 'b.$': 1 }, { query: { a: 5 } })({ _id: 1, a: [0, 0, 5], b: [1] }), 51247, "positional operator '.$' element mismatch");
  });

  const errors: Array<[string, Document, number, string]> = [
    ['two positional projections', { 'a.$': 1, 'b.$': 1 }, 31276, 'Cannot specify more than one positional projection per query.'],
    ['positional after $elemMatch', { b: { $elemMatch: { x: 1 } }, 'a.$': 1 }, 31256, 'Cannot specify positional operator and $elemMatch.'],
    ['$elemMatch after positional', { 'a.$': 1, b: { $elemMatch: { x: 1 } } }, 31255, 'Cannot specify positional operator and $elemMatch.'],
    ['in the middle of a path', { 'a.$.b': 1 }, 31394, "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and the results will be equivalent."],
    ['.$ alone', { '.$': 1 }, 5392900, 'Projection on field .$ is invalid'],
    ['with exclusion', { 'a.$': false }, 31395, 'positional projection cannot be used with exclusion'],
    ['in an exclusion projection', { b: 0, 'a.$': 1 }, 31253, 'Cannot do inclusion on field a.$ in exclusion projection'],
  ];
  for (const [name, spec, code, message] of errors) {
    it(name, () => expectCommandError(() => compileProjection(spec, { query: { a: 1 } }), code, message));
  }

  it('is refused by $project (31324), and a middle $ is 31394 there too', () => {
    expectCommandError(() => parseProjection({ 'a.$': 1 }, 'aggregate'), 31324, 'Cannot use positional projection in aggregation projection');
    expectCommandError(() => parseProjection({ 'a.$.b': 1 }, 'aggregate'), 31394, "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and the results will be equivalent.");
  });
});
