/** `$switch`: the first truthy branch's `then`, else `default`; mongod 8.2's parse and run errors. */
import { describe } from 'vitest';
import { errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { x: 5, s: 'a', z: 0 };

describe('$switch', () => {
  valueRows(
    [
      ['the first truthy branch', { $switch: { branches: [{ case: { $gt: ['$x', 9] }, then: 'big' }, { case: { $gt: ['$x', 1] }, then: 'mid' }] } }, 'mid'],
      ['default when none matches', { $switch: { branches: [{ case: '$z', then: 1 }], default: 'd' } }, 'd'],
      ['truthiness: a non-empty string', { $switch: { branches: [{ case: '$s', then: 'yes' }] } }, 'yes'],
      ['key order inside a branch does not matter', { $switch: { branches: [{ then: 'm', case: true }] } }, 'm'],
      ['a constant true case after a field-path case', { $switch: { branches: [{ case: '$z', then: 1 }, { case: true, then: 2 }] } }, 2],
      ['a missing then is missing', { $switch: { branches: [{ case: true, then: '$nope' }] } }, undefined],
    ],
    DOC,
  );
  errorRows(
    [['no match and no default at run time', { $switch: { branches: [{ case: '$z', then: 1 }] } }, 40066, '$switch could not find a matching branch for an input, and no default was specified.']],
    DOC,
  );
  parseErrorRows([
    ['a non-object argument', { $switch: [1] }, 40060, '$switch requires an object as an argument, found: array'],
    ['branches not an array', { $switch: { branches: { case: true, then: 1 } } }, 40061, "$switch expected an array for 'branches', found: object"],
    ['a branch not an object', { $switch: { branches: [null] } }, 40062, '$switch expected each branch to be an object, found: null'],
    ['an unknown branch field', { $switch: { branches: [{ case: true, then: 1, x: 1 }] } }, 40063, '$switch found an unknown argument to a branch: x'],
    ['a branch without case', { $switch: { branches: [{ then: 1 }] } }, 40064, "$switch requires each branch have a 'case' expression"],
    ['a branch without then', { $switch: { branches: [{ case: true }] } }, 40065, "$switch requires each branch have a 'then' expression."],
    ['an unknown top-level field', { $switch: { branches: [{ case: true, then: 1 }], other: 1 } }, 40067, '$switch found an unknown argument: other'],
    ['no branch', { $switch: { default: 1 } }, 40068, '$switch requires at least one branch.'],
    [
      'every case a falsy constant and no default',
      { $switch: { branches: [{ case: false, then: 1 }, { case: null, then: 2 }] } },
      40069,
      'Cannot execute a switch statement where all the cases evaluate to false without a default',
    ],
  ]);
});

describe('$switch: what the optimizer folds', () => {
  valueRows([
    ['a later branch after a constant true case is not evaluated', { $switch: { branches: [{ case: true, then: 'ok' }, { case: { $gt: [{ $divide: [1, 0] }, 0] }, then: 'x' }] } }, 'ok'],
    ['the then of a constant false case is not evaluated', { $switch: { branches: [{ case: false, then: { $divide: [1, 0] } }], default: 'ok' } }, 'ok'],
  ]);
  parseErrorRows([
    ['a constant default is evaluated even when a branch always matches', { $switch: { branches: [{ case: true, then: 'ok' }], default: { $divide: [1, 0] } } }, 2, "can't $divide by zero"],
  ]);
});
