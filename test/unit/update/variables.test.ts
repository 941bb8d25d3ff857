import { describe, expect, it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { bindFilterVariables, bindVariables, evaluateLetVariables, withConstants } from '../../../src/storage/update/variables.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_000);
const CTX = { now: NOW, isUpsertInsert: false };

describe('command let variables', () => {
  it('evaluates each expression once, in order, earlier ones in scope', () => {
    const vars = evaluateLetVariables({ a: { $add: [1, 2] }, b: { $multiply: ['$$a', 10] }, c: 'text', d: '$$NOW' }, NOW);
    expect([...vars.entries()]).toEqual([
      ['a', 3],
      ['b', 30],
      ['c', 'text'],
      ['d', NOW],
    ]);
  });
  const errors: Array<[string, Document, number, string]> = [
    ['a field reference', { x: '$a' }, 4890500, 'Command let Expression tried to access a field, but this is not allowed because command let expressions run before the query examines any documents.'],
    ['an uppercase name', { X: 1 }, 16867, "'X' starts with an invalid character for a user variable name"],
    ['a name with a dot', { 'a.b': 1 }, 16868, "'a.b' contains an invalid character for a variable name: '.'"],
    ['an empty name', { '': 1 }, 16866, 'empty variable names are not allowed'],
  ];
  for (const [name, letDoc, code, message] of errors) {
    it(name, () => expectCommandError(() => evaluateLetVariables(letDoc, NOW), code, message));
  }
});

describe('binding variables', () => {
  const vars = withConstants(new Map<string, unknown>([['x', 1], ['y', 2]]), { y: { k: [1, 2] } });
  it('replaces references by literals, paths included; $literal is left alone', () => {
    expectExact(bindVariables({ $add: ['$$x', '$$y.k', '$a', '$$NOW', '$$zz'], l: { $literal: '$$x' } }, vars), {
      $add: [{ $literal: 1 }, { $literal: [1, 2] }, '$a', '$$NOW', '$$zz'],
      l: { $literal: '$$x' },
    });
  });
  it('a missing path becomes $$REMOVE', () => {
    expect(bindVariables('$$y.none', vars)).toBe('$$REMOVE');
  });
  it('binds $expr clauses of a filter only', () => {
    expectExact(bindFilterVariables({ a: '$$x', $expr: { $eq: ['$a', '$$x'] }, $or: [{ $expr: '$$y' }] }, vars), {
      a: '$$x',
      $expr: { $eq: ['$a', { $literal: 1 }] },
      $or: [{ $expr: { $literal: { k: [1, 2] } } }],
    });
  });
  it('a pipeline update sees let and constants, constants winning', () => {
    const update = compileUpdate([{ $set: { v: '$$y', w: { $add: ['$$x', 1] } } }], { variables: new Map([['x', 1], ['y', 0]]), constants: { y: 'c' } });
    expectExact(update.apply({ _id: 1 }, CTX).doc, { _id: 1, v: 'c', w: 2 });
  });
  it('an undefined variable is still refused', () => {
    expectCommandError(() => compileUpdate([{ $set: { v: '$$nope' } }], { variables: new Map([['x', 1]]) }), 17276, 'Invalid $set :: caused by :: Use of undefined variable: nope');
  });
  it('constants on a non-pipeline update are 51198', () => {
    expectCommandError(() => compileUpdate({ $set: { a: 1 } }, { constants: { x: 1 } }), 51198, 'Constant values may only be specified for pipeline updates');
  });
});
