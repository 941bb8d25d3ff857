/**
 * The top-level fields a pipeline reads of its input documents (src/storage/aggregation/
 * dependencies.ts): exact for the stages it knows, null (whole documents) whenever a stage or an
 * expression may read more than it names.
 */
import { describe, expect, it } from 'vitest';
import { Long } from '../../../src/bson/library.js';
import { pipelineFields } from '../../../src/storage/aggregation/dependencies.js';

describe('pipelineFields', () => {
  it.each([
    ['countDocuments', [{ $match: { n: 3 } }, { $group: { _id: 1, n: { $sum: 1 } } }], ['n']],
    ['a group by a field', [{ $group: { _id: '$a.b', c: { $sum: '$x' }, d: { $push: '$$CURRENT.y' } } }], ['a', 'x', 'y']],
    ['a group with $top', [{ $group: { _id: null, t: { $top: { sortBy: { 's.t': -1 }, output: ['$o', '$$NOW'] } } } }], ['s', 'o']],
    ['stages that pass documents on', [{ $match: { $or: [{ a: 1 }, { 'b.c': 2 }] } }, { $sort: { d: 1 } }, { $skip: 1 }, { $limit: 5 }, { $unwind: '$e' }, { $set: { f: { $add: ['$g', 1] } } }, { $unset: 'h' }, { $count: 'n' }], ['a', 'b', 'd', 'e', 'g']],
    ['$unwind as a document', [{ $unwind: { path: '$arr', includeArrayIndex: 'i' } }, { $group: { _id: '$arr' } }], ['arr']],
    ['an inclusion $project', [{ $project: { a: 1, 'b.c': true, d: Long.fromNumber(2), e: { $concat: ['$f', 'x'] }, g: { h: 1 } } }], ['a', 'b', 'd', 'f', 'g', '_id']],
    ['an inclusion $project without _id', [{ $project: { _id: 0, a: 1 } }], ['a']],
    ['$literal strings are not fields', [{ $group: { _id: { $literal: '$notAField' }, c: { $sum: 1 } } }], []],
    ['a variable bound by $let', [{ $group: { _id: { $let: { vars: { v: '$a' }, in: '$$v' } } } }], ['a']],
    ['$count alone', [{ $count: 'n' }], []],
  ])('%s', (_name, stages, expected) => {
    expect(pipelineFields(stages)).toEqual(expected);
  });

  it.each([
    ['a pipeline passing documents to the output', [{ $match: { a: 1 } }, { $sort: { b: 1 } }]],
    ['$$ROOT', [{ $group: { _id: null, all: { $push: '$$ROOT' } } }]],
    ['$$CURRENT', [{ $group: { _id: '$$CURRENT' } }]],
    ['$getField', [{ $group: { _id: { $getField: 'a' } } }]],
    ['$expr in $match', [{ $match: { $expr: { $eq: ['$a', 1] } } }, { $count: 'n' }]],
    ['an exclusion $project', [{ $project: { a: 0 } }]],
    ['an exclusion by a zero of another type', [{ $project: { a: Long.fromNumber(0), b: 1 } }]],
    ['an exclusion nested in a specification', [{ $project: { a: { b: 0 } } }]],
    ['$project of _id: 0 alone', [{ $project: { _id: 0 } }]],
    ['an unknown stage', [{ $lookup: { from: 'x', localField: 'a', foreignField: 'b', as: 'c' } }, { $count: 'n' }]],
    ['$replaceRoot', [{ $replaceRoot: { newRoot: '$a' } }]],
    ['an empty pipeline', []],
  ])('%s: whole documents', (_name, stages) => {
    expect(pipelineFields(stages)).toBeNull();
  });
});
