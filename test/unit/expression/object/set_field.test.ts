/** `$setField` / `$unsetField`: the `field` argument's parse-time checks, and the basic results. */
import { describe } from 'vitest';
import { parseErrorRows, valueRows } from '../helpers.js';

describe('$setField and $unsetField', () => {
  valueRows(
    [
      ['set a dotted name literally', { $setField: { field: 'a.b', input: { x: 1 }, value: 2 } }, { x: 1, 'a.b': 2 }],
      ['replace in place', { $setField: { field: 'x', input: { x: 1, y: 2 }, value: 3 } }, { x: 3, y: 2 }],
      ['unset a $-prefixed name', { $unsetField: { field: { $literal: '$a' }, input: { $literal: { $a: 1, b: 2 } } } }, { b: 2 }],
    ],
  );
  parseErrorRows([
    ['an empty object is a constant of the wrong type', { $setField: { field: {}, input: {}, value: 1 } }, 4161107, "$setField requires 'field' to evaluate to type String, but got object"],
    ['an object with fields is not a constant', { $setField: { field: { a: 1 }, input: {}, value: 1 } }, 4161106, "$setField requires 'field' to evaluate to a constant, but got a non-constant argument"],
    ['a NUL in the name', { $setField: { field: 'a\0b', input: {}, value: 1 } }, 9534700, "$setField: 'field' cannot contain an embedded null byte"],
    ['a NUL in a $literal name', { $unsetField: { field: { $literal: '\0' }, input: {} } }, 9534700, "$unsetField: 'field' cannot contain an embedded null byte"],
  ]);
});
