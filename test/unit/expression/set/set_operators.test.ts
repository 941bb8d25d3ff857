/**
 * The set operators (`$setDifference`, `$setEquals`, `$setIntersection`, `$setIsSubset`,
 * `$setUnion`), as mongod 8.2 answers: duplicates removed, the ordered sets (`$setUnion`,
 * `$setIntersection`) sorted by the BSON order, the first of equal values kept (so its type),
 * `$setDifference` in its first array's order, membership under the command's collation.
 */
import { describe } from 'vitest';
import { Decimal128, Double, Int32, Long } from '../../../../src/bson/library.js';
import { collation, errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { a: [1, 2, 2, 3], b: [2, 3, 4], n: null, i: 5, s: 'x', strs: ['b', 'A', 'a'] };

describe('$setUnion', () => {
  valueRows(
    [
      ['distinct values, sorted', { $setUnion: [[3, 1, 1], [2, 1]] }, [1, 2, 3]],
      ['mixed types in BSON order', { $setUnion: [['x', 1, null, true], [{ a: 1 }]] }, [null, 1, 'x', { a: 1 }, true]],
      ['the first of equal numbers is kept', { $setUnion: [[new Int32(1)], [new Double(1), Long.fromNumber(1)]] }, [1]],
      ['a Double first keeps its type', { $setUnion: [[new Double(1)], [1]] }, [new Double(1)]],
      ['no argument', { $setUnion: [] }, []],
      ['one array', { $setUnion: '$a' }, [1, 2, 3]],
      ['field paths', { $setUnion: ['$a', '$b'] }, [1, 2, 3, 4]],
      ['a null argument', { $setUnion: ['$a', null] }, null],
      ['a missing argument', { $setUnion: ['$a', '$nope'] }, null],
      ['arrays as elements compare whole', { $setUnion: [[[1, 2], [1, 2]], [[2, 1]]] }, [[1, 2], [2, 1]]],
    ],
    DOC,
  );
  errorRows(
    [['a non-array', { $setUnion: ['$a', '$i'] }, 17043, 'All operands of $setUnion must be arrays. One argument is of type: int']],
    DOC,
  );
});

describe('$setIntersection', () => {
  valueRows(
    [
      ['common values, sorted', { $setIntersection: [[3, 2, 1, 2], [2, 3, 5]] }, [2, 3]],
      ['int and long: the int of the first', { $setIntersection: [[1], [Long.fromNumber(1)]] }, [1]],
      ['long and double: the long of the first', { $setIntersection: [[Long.fromNumber(1)], [new Double(1)]] }, [Long.fromNumber(1)]],
      ['double and decimal: the double of the first', { $setIntersection: [[new Double(1)], [Decimal128.fromString('1')]] }, [new Double(1)]],
      ['no argument', { $setIntersection: [] }, []],
      ['an empty array', { $setIntersection: [[], [1]] }, []],
      ['a null argument', { $setIntersection: ['$a', '$n'] }, null],
      ['null after an empty intersection is still null', { $setIntersection: [[1], [2], null] }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a non-array', { $setIntersection: ['$a', '$s'] }, 17047, 'All operands of $setIntersection must be arrays. One argument is of type: string'],
      ['a non-array before a null', { $setIntersection: ['$i', null] }, 17047, 'All operands of $setIntersection must be arrays. One argument is of type: int'],
    ],
    DOC,
  );
});

describe('$setDifference', () => {
  valueRows(
    [
      ['the first array order, duplicates dropped', { $setDifference: [[3, 1, 3, 2, 1], [2]] }, [3, 1]],
      ['field paths', { $setDifference: ['$a', '$b'] }, [1]],
      ['numbers equal across types', { $setDifference: [[1, 2], [new Double(1), Decimal128.fromString('2.0')]] }, []],
      ['a null first', { $setDifference: [null, [1]] }, null],
      ['a missing second', { $setDifference: [[1], '$nope'] }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a non-array first', { $setDifference: ['$i', [1]] }, 17048, 'both operands of $setDifference must be arrays. First argument is of type: int'],
      ['a non-array second', { $setDifference: [[1], '$s'] }, 17049, 'both operands of $setDifference must be arrays. Second argument is of type: string'],
    ],
    DOC,
  );
  parseErrorRows([['one argument', { $setDifference: [[1]] }, 16020, 'Expression $setDifference takes exactly 2 arguments. 1 were passed in.']]);
});

describe('$setEquals', () => {
  valueRows(
    [
      ['same values, duplicates ignored', { $setEquals: [[1, 2, 2], [2, 1]] }, true],
      ['different values', { $setEquals: [[1, 2], [1]] }, false],
      ['three arrays', { $setEquals: [[1], [1, 1], [new Double(1)]] }, true],
      ['null elements are values', { $setEquals: [[null], [null, null]] }, true],
      ['a field path', { $setEquals: ['$b', [4, 3, 2]] }, true],
      ['the first difference answers before a later non-array is read', { $setEquals: [[1], [2], '$i'] }, false],
    ],
    DOC,
  );
  errorRows(
    [
      ['a null field', { $setEquals: ['$n', [1]] }, 17044, 'All operands of $setEquals must be arrays. 1-th argument is of type: null'],
      ['a missing field second', { $setEquals: [[1], '$nope'] }, 17044, 'All operands of $setEquals must be arrays. 2-th argument is of type: missing'],
    ],
    DOC,
  );
  parseErrorRows([
    ['one argument', { $setEquals: [[1]] }, 17045, '$setEquals needs at least two arguments had: 1'],
    ['a constant null', { $setEquals: [[1], null] }, 5887502, 'All operands of $setEquals must be arrays. 2-th argument is of type: null'],
    ['a constant object, even beside a field path', { $setEquals: ['$a', { a: 1 }] }, 5887502, 'All operands of $setEquals must be arrays. 2-th argument is of type: object'],
  ]);
});

describe('$setIsSubset', () => {
  valueRows(
    [
      ['a subset', { $setIsSubset: [[1, 1, 2], [2, 1, 3]] }, true],
      ['not a subset', { $setIsSubset: ['$b', '$a'] }, false],
      ['the empty set', { $setIsSubset: [[], []] }, true],
    ],
    DOC,
  );
  errorRows(
    [
      ['a null first (checked before the second)', { $setIsSubset: [null, null] }, 17046, 'both operands of $setIsSubset must be arrays. First argument is of type: null'],
      ['a missing second', { $setIsSubset: [[1], '$nope'] }, 17042, 'both operands of $setIsSubset must be arrays. Second argument is of type: missing'],
    ],
    DOC,
  );
  parseErrorRows([['three arguments', { $setIsSubset: [[1], [2], [3]] }, 16020, 'Expression $setIsSubset takes exactly 2 arguments. 3 were passed in.']]);
});

describe('the collation', () => {
  const ci = collation({ locale: 'en', strength: 2 });
  valueRows(
    [
      ['$setUnion: equal strings once (the first kept)', { $setUnion: ['$strs'] }, ['A', 'b']],
      ['$setEquals: case ignored', { $setEquals: [['a', 'B'], ['b', 'A']] }, true],
      ['$setIsSubset: case ignored', { $setIsSubset: [['A'], ['a']] }, true],
      ['$setDifference: case ignored', { $setDifference: [['a', 'c'], ['A']] }, ['c']],
      ['$setIntersection: case ignored, the value of the smaller set kept', { $setIntersection: [['a', 'c'], ['C']] }, ['C']],
      ['$setIntersection: sets of one size keep the value of the first', { $setIntersection: [['c'], ['C']] }, ['c']],
    ],
    DOC,
    ci,
  );
});
