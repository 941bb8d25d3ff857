/**
 * The operator rules as functions (src/cosmos/rules/): the walker's table of where each command
 * keeps its filters and pipelines, the refused operators per version, and the 60 s request limit
 * of TimeLimit on a hand-driven clock.
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { forEachCommandPart, forEachPipelineFilter } from '../../../src/cosmos/rules/_command_filters.js';
import { cosmosCheckCommandExpressions } from '../../../src/cosmos/rules/expression_operators.js';
import { cosmosCheckCommandFilters } from '../../../src/cosmos/rules/query_operators.js';
import { cosmosCheckCompoundIndexFields } from '../../../src/cosmos/rules/index_compound_fields.js';
import { COSMOS_SERVER_VERSIONS, COSMOS_VERSIONS } from '../../../src/cosmos/versions.js';
import { TimeLimit } from '../../../src/commands/crud/time_limit.js';
import { errorOf, thrownCommandError } from '../thrown.js';

const V70 = COSMOS_VERSIONS['7.0'];

/** The filters and pipelines the walker reports for a command, as JSON. */
function parts(name: string, body: Document): { filters: unknown[]; pipelines: unknown[] } {
  const filters: unknown[] = [];
  const pipelines: unknown[] = [];
  forEachCommandPart(name, body, { filter: (f) => filters.push(f), pipeline: (p) => pipelines.push(p) });
  return { filters, pipelines };
}

describe('the walker', () => {
  test.each([
    ['find', { find: 'c', filter: { a: 1 } }, [{ a: 1 }], []],
    ['aggregate', { aggregate: 'c', pipeline: [{ $match: { a: 1 } }] }, [], [[{ $match: { a: 1 } }]]],
    ['count', { count: 'c', query: { a: 1 } }, [{ a: 1 }], []],
    ['distinct', { distinct: 'c', key: 'a', query: { a: 2 } }, [{ a: 2 }], []],
    ['findAndModify', { findAndModify: 'c', query: { a: 1 }, update: [{ $set: { b: 1 } }] }, [{ a: 1 }], [[{ $set: { b: 1 } }]]],
    ['update', { update: 'c', updates: [{ q: { a: 1 }, u: { $set: { b: 1 } } }, { q: { a: 2 }, u: [{ $set: { b: 2 } }] }] }, [{ a: 1 }, { a: 2 }], [[{ $set: { b: 2 } }]]],
    ['delete', { delete: 'c', deletes: [{ q: { a: 1 }, limit: 0 }, 'junk'] }, [{ a: 1 }], []],
    ['bulkWrite', { bulkWrite: 1, ops: [{ insert: 0, document: {} }, { delete: 0, filter: { a: 3 } }], nsInfo: [] }, [{ a: 3 }], []],
    ['explain', { explain: { count: 'c', query: { a: 4 } } }, [{ a: 4 }], []],
    ['create', { create: 'v', viewOn: 'c', pipeline: [{ $match: {} }] }, [], [[{ $match: {} }]]],
    ['insert', { insert: 'c', documents: [{ $where: 1 }] }, [], []],
    ['find', { find: 'c', filter: 'not a document' }, [], []],
  ] as Array<[string, Document, unknown[], unknown[]]>)('%s %o', (name, body, filters, pipelines) => {
    expect(parts(name, body)).toEqual({ filters, pipelines });
  });

  test("a pipeline's filters: each $match and $geoNear's query, nested pipelines included", () => {
    const found: unknown[] = [];
    const pipeline = [
      { $geoNear: { near: [0, 0], distanceField: 'd', query: { g: 1 } } },
      { $facet: { x: [{ $match: { f: 1 } }] } },
      { $lookup: { from: 'o', pipeline: [{ $match: { l: 1 } }], as: 'j' } },
      { $unionWith: { coll: 'u', pipeline: [{ $match: { u: 1 } }] } },
    ];
    forEachPipelineFilter(pipeline, (f) => found.push(f));
    expect(found).toEqual([{ g: 1 }, { f: 1 }, { l: 1 }, { u: 1 }]);
  });
});

describe('the refused operators', () => {
  test('every version refuses the same query operators and $meta (the pages are alike)', () => {
    for (const v of COSMOS_SERVER_VERSIONS) {
      expect([...COSMOS_VERSIONS[v].refusedQueryOperators].sort()).toEqual(['$bitsAllClear', '$bitsAllSet', '$bitsAnyClear', '$bitsAnySet', '$box', '$center', '$centerSphere', '$jsonSchema', '$polygon', '$text', '$where']);
      expect([...COSMOS_VERSIONS[v].refusedExpressionOperators]).toEqual(['$meta']);
    }
  });

  test.each([
    [{ update: 'c', updates: [{ q: { $nor: [{ a: { $elemMatch: { $where: 'x' } } }] }, u: {} }] }, 'The query operator $where is not supported.'],
    [{ delete: 'c', deletes: [{ q: { loc: { $geoWithin: { $polygon: [] } } }, limit: 1 }] }, 'The query operator $polygon is not supported.'],
    [{ aggregate: 'c', pipeline: [{ $lookup: { from: 'o', pipeline: [{ $match: { $text: { $search: 'x' } } }], as: 'j' } }] }, 'The query operator $text is not supported.'],
  ] as Array<[Document, string]>)('%o: 115', (body, message) => {
    const name = Object.keys(body)[0]!;
    expect(errorOf(() => cosmosCheckCommandFilters(name, body, V70))).toEqual([115, message]);
  });

  test('an operator name as a field value, or a supported operator, passes; a field called $meta inside $literal passes', () => {
    expect(() => cosmosCheckCommandFilters('find', { find: 'c', filter: { a: '$where', b: { $in: ['$text'] } } }, V70)).not.toThrow();
    expect(() => cosmosCheckCommandExpressions('aggregate', { aggregate: 'c', pipeline: [{ $project: { x: { $literal: { $meta: 1 } } } }] }, V70)).not.toThrow();
  });

  test('$meta in a find projection, a findAndModify sort and an explained find is 115', () => {
    for (const [name, body] of [
      ['find', { find: 'c', projection: { s: { $meta: 'textScore' } } }],
      ['findAndModify', { findAndModify: 'c', sort: { s: { $meta: 'textScore' } } }],
      ['explain', { explain: { find: 'c', sort: { s: { $meta: 'textScore' } } } }],
    ] as Array<[string, Document]>) {
      expect(errorOf(() => cosmosCheckCommandExpressions(name, body, V70))).toEqual([115, 'The operator $meta is not supported.']);
    }
  });

  test('a compound index of 9 fields is 67; 8 pass', () => {
    const key: Document = {};
    for (const f of 'abcdefgh') key[f] = 1;
    expect(() => cosmosCheckCompoundIndexFields({ key })).not.toThrow();
    key.i = -1;
    const err = thrownCommandError(() => cosmosCheckCompoundIndexFields({ key }));
    expect([err.code, err.codeName]).toEqual([67, 'CannotCreateIndex']);
  });
});

describe('the 60 s request limit of TimeLimit', () => {
  test('checks answer 50 ExceededTimeLimit once the request has run more than 60 s; a new request starts afresh', () => {
    let now = 0;
    let started = 0;
    const limit = new TimeLimit(Number.POSITIVE_INFINITY, () => now, () => started);
    now = 60_000;
    expect(() => limit.check()).not.toThrow();
    now = 60_001;
    const err = thrownCommandError(() => limit.check());
    // The reply's codeName is Cosmos's (mongod 8.2 names code 50 MaxTimeMSExpired).
    expect([err.code, err.toReply().codeName, err.message]).toEqual([50, 'ExceededTimeLimit', 'The request has exceeded the timeout of 60 seconds of execution.']);
    started = 60_001;
    expect(() => limit.check()).not.toThrow();
  });

  test("mongod's budget still answers its own 50 first", () => {
    let now = 0;
    // Each reading of the clock takes 4 ms: the budget of 10 ms is spent before Cosmos's 60 s.
    const limit = new TimeLimit(10, () => (now += 4), () => 0);
    const it = limit.timed([{ a: 1 }, { a: 2 }, { a: 3 }])[Symbol.iterator]();
    expect(it.next().value).toEqual({ a: 1 });
    const err = thrownCommandError(() => it.next());
    expect([err.code, err.codeName, err.message]).toEqual([50, 'MaxTimeMSExpired', 'operation exceeded time limit']);
  });
});
