import { describe, expect, test } from 'vitest';
import { compileQuery, evaluateLet } from '../../../src/storage/query/compile_query.js';
import { thrown } from './helpers.js';

const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);

describe('command let parameters', () => {
  test('$expr reads let variables as $$name', () => {
    const vars = evaluateLet({ id: 1, name: 'x' }, NOW);
    const pred = compileQuery({ $expr: { $and: [{ $eq: ['$_id', '$$id'] }, { $eq: ['$n', '$$name'] }] } }, NOW, vars);
    expect(pred({ _id: 1, n: 'x' })).toBe(true);
    expect(pred({ _id: 2, n: 'x' })).toBe(false);
    expect(pred({ _id: 1, n: 'y' })).toBe(false);
  });

  test('values are expressions evaluated once; later ones see earlier ones and $$NOW', () => {
    const vars = evaluateLet({ a: { $add: [1, 2] }, b: { $multiply: ['$$a', 10] }, lit: { $literal: '$x' }, now: '$$NOW' }, NOW)!;
    expect(vars.values.get('a')).toBe(3);
    expect(vars.values.get('b')).toBe(30);
    expect(vars.values.get('lit')).toBe('$x');
    expect(vars.values.get('now')).toEqual(new Date(NOW));
  });

  test('an absent or empty let defines nothing; an undefined variable stays an error', () => {
    expect(evaluateLet(undefined, NOW)).toBeUndefined();
    expect(evaluateLet({}, NOW)).toBeUndefined();
    expect(thrown(() => compileQuery({ $expr: { $eq: ['$_id', '$$id'] } }, NOW))).toEqual({
      code: 17276,
      codeName: 'Location17276',
      message: 'Use of undefined variable: id',
    });
  });

  test('invalid variable names are refused with the let context', () => {
    expect(thrown(() => evaluateLet({ Id: 1 }, NOW))).toEqual({
      code: 16870,
      codeName: 'Location16870',
      message: "Invalid 'let' parameter :: caused by :: 'Id' starts with an invalid character for a user variable name",
    });
    expect(thrown(() => evaluateLet({ 'a-b': 1 }, NOW))?.code).toBe(16871);
  });

  test('a let expression may not read a field', () => {
    const message =
      'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.';
    expect(thrown(() => evaluateLet({ x: '$a' }, NOW))).toEqual({ code: 4890500, codeName: 'Location4890500', message });
    expect(thrown(() => evaluateLet({ x: '$$ROOT' }, NOW))?.code).toBe(4890500);
  });
});
