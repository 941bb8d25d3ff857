/**
 * The one evaluator of a command's `let` and of an update statement's constants `c`
 * (src/storage/expression/let.ts), with mongod 8.2's codes and messages
 * (variables.cpp `seedVariablesWithLetParameters`, variable_validation.cpp).
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { NO_VARIABLES, evaluateCommandLet, withConstants } from '../../../src/storage/expression/let.js';
import { compileQuery } from '../../../src/storage/query/compile_query.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';
import { NOW } from './helpers.js';

const RUNTIME = { now: NOW, collator: null };
const let_ = (doc: unknown) => evaluateCommandLet(doc, RUNTIME);

const FIELD_ACCESS =
  'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.';

describe('evaluateCommandLet', () => {
  test('values are expressions evaluated once, in order; later ones see earlier ones and $$NOW', () => {
    const vars = let_({ a: { $add: [1, 2] }, b: { $multiply: ['$$a', 10] }, lit: { $literal: '$x' }, now: '$$NOW', c: 'text' });
    expect(vars.names).toEqual(['a', 'b', 'lit', 'now', 'c']);
    expectExact(vars.values, [3, 30, '$x', NOW, 'text']);
  });

  test('an absent, null or empty let defines nothing', () => {
    expect([let_(undefined), let_(null), let_({})].map((v) => v.names.length)).toEqual([0, 0, 0]);
  });

  const nameErrors: Array<[string, Document, number, string]> = [
    ['an uppercase first letter', { A: 1 }, 9, "Invalid 'let' parameter :: caused by :: 'A' starts with an invalid character for a user variable name"],
    ['a digit first', { '1a': 1 }, 9, "Invalid 'let' parameter :: caused by :: '1a' starts with an invalid character for a user variable name"],
    ['an underscore first', { _a: 1 }, 9, "Invalid 'let' parameter :: caused by :: '_a' starts with an invalid character for a user variable name"],
    ['a dot inside', { 'a.b': 1 }, 9, "Invalid 'let' parameter :: caused by :: 'a.b' contains an invalid character for a variable name: '.'"],
    ['an empty name', { '': 1 }, 9, "Invalid 'let' parameter :: caused by :: empty variable names are not allowed"],
    ['a builtin read-only name', { ROOT: 1 }, 9, "Invalid 'let' parameter :: caused by :: 'ROOT' starts with an invalid character for a user variable name"],
    ['a system constant only internal clients set', { NOW: new Date(0) }, 4738901, 'Attempt to set internal constant: NOW'],
    ['$$CLUSTER_TIME likewise', { CLUSTER_TIME: 1 }, 4738901, 'Attempt to set internal constant: CLUSTER_TIME'],
  ];
  for (const [name, doc, code, message] of nameErrors) {
    test(`refuses ${name}`, () => expectCommandError(() => let_(doc), code, message));
  }

  test('CURRENT may be defined, and field paths then read it', () => {
    const vars = let_({ CURRENT: { $literal: { a: 7 } } });
    const pred = compileQuery({ $expr: { $eq: ['$a', 7] } }, NOW.getTime(), vars);
    expect([pred({ a: 1 }), pred({ a: 7 })]).toEqual([true, true]);
  });

  const fieldReads: Array<[string, unknown]> = [
    ['a field path', '$a'],
    ['$$ROOT', '$$ROOT'],
    ['$$CURRENT.a', '$$CURRENT.a'],
    ['$getField of the current document', { $getField: 'a' }],
    ['a field path in a branch never taken', { $cond: [true, 1, '$a'] }],
  ];
  for (const [name, expr] of fieldReads) {
    test(`refuses ${name} (4890500, whether evaluated or not)`, () => expectCommandError(() => let_({ x: expr }), 4890500, FIELD_ACCESS));
  }

  test('an undefined variable in a value is 17276', () => {
    expectCommandError(() => let_({ x: '$$y' }), 17276, 'Use of undefined variable: y');
  });
});

describe('the variables in the expressions that read them', () => {
  const vars = let_({ id: 1, name: 'x', doc: { $literal: { k: [1, 2] } } });

  test("$expr reads let variables as $$name, paths included", () => {
    const pred = compileQuery({ $expr: { $and: [{ $eq: ['$_id', '$$id'] }, { $eq: ['$n', '$$name'] }, { $eq: ['$k', '$$doc.k'] }] } }, NOW.getTime(), vars);
    expect([pred({ _id: 1, n: 'x', k: [1, 2] }), pred({ _id: 2, n: 'x', k: [1, 2] }), pred({ _id: 1, n: 'x', k: [1] })]).toEqual([true, false, false]);
  });

  test('an undefined variable is 17276 when the filter is compiled', () => {
    expectCommandError(() => compileQuery({ $expr: { $eq: ['$_id', '$$nope'] } }, NOW.getTime(), vars), 17276, 'Use of undefined variable: nope');
  });

  test('every stage reads them, $project included', () => {
    const run = compilePipeline([{ $project: { _id: 0, v: '$$name', w: { $add: ['$$id', '$a'] } } }], newPipelineContext({ now: NOW, variables: vars }));
    expectExact(Array.from(run([{ _id: 5, a: 2 }])), [{ v: 'x', w: 3 }]);
  });
});

describe('withConstants (an update statement `c`)', () => {
  test('names are checked as reads (an uppercase first letter is fine), values taken as they are', () => {
    const vars = withConstants(NO_VARIABLES, { Up: '$notAPath', n: 1 });
    expect(vars.names).toEqual(['Up', 'n']);
    expect(vars.values).toEqual(['$notAPath', 1]);
  });

  test('an invalid constant name is FailedToParse without the let context', () => {
    expectCommandError(() => withConstants(NO_VARIABLES, { '1a': 1 }), 9, "'1a' starts with an invalid character for a user variable name");
  });

  test('a pipeline update sees let and constants, constants winning', () => {
    const update = compileUpdate([{ $set: { v: '$$y', w: { $add: ['$$x', 1] } } }], { variables: let_({ x: 1, y: 0 }), constants: { y: 'c' } });
    expectExact(update.apply({ _id: 1 }, { now: NOW, isUpsertInsert: false }).doc, { _id: 1, v: 'c', w: 2 });
  });

  test('an undefined variable is still refused', () => {
    expectCommandError(() => compileUpdate([{ $set: { v: '$$nope' } }], { variables: let_({ x: 1 }) }), 17276, 'Invalid $set :: caused by :: Use of undefined variable: nope');
  });

  test('constants on a non-pipeline update are 51198', () => {
    expectCommandError(() => compileUpdate({ $set: { a: 1 } }, { constants: { x: 1 } }), 51198, 'Constant values may only be specified for pipeline updates');
  });
});
