/** System variables and variable references: what mongod 8.2 answers on a standalone server. */
import { describe } from 'vitest';
import { parseErrorRows, valueRows } from '../helpers.js';

const DOC = { a: { b: 1 } };

describe('system variables', () => {
  valueRows(
    [
      ['$$ROOT', '$$ROOT', DOC],
      ['$$CURRENT.a.b', '$$CURRENT.a.b', 1],
      ['$$REMOVE is missing', '$$REMOVE', undefined],
      ['$$SEARCH_META without a search is missing', '$$SEARCH_META', undefined],
      ['$$NOW', '$$NOW', new Date(Date.UTC(2024, 0, 2, 3, 4, 5))],
    ],
    DOC,
  );
  parseErrorRows([
    ['$$CLUSTER_TIME without a logical clock', '$$CLUSTER_TIME', 10071200, "Builtin variable '$$CLUSTER_TIME' is not available"],
    ['$$CLUSTER_TIME is refused even where $ifNull would replace it', { $ifNull: ['$$CLUSTER_TIME', 1] }, 10071200, "Builtin variable '$$CLUSTER_TIME' is not available"],
    ['an empty name before a path', '$$.a', 9, 'empty variable names are not allowed'],
    ['a trailing dot after a variable', '$$ROOT.', 40353, "FieldPath must not end with a '.'."],
    ['an undefined variable before its path is checked', '$$x.', 17276, 'Use of undefined variable: x'],
  ]);
});
