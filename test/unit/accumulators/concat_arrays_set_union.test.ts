/** `$concatArrays` and `$setUnion` in `$group` (mongod 8.2: accumulator_concat_arrays.cpp, accumulator_set_union.cpp). */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { groupErrorTable, groupTable } from './helpers.js';

describe('$concatArrays', () => {
  groupTable([
    ['concatenates in input order', { $concatArrays: '$v' }, [{ v: [1, 2] }, { v: [3] }, { v: [4, [5]] }], [1, 2, 3, 4, [5]]],
    ['skips missing inputs', { $concatArrays: '$v' }, [{ v: [1] }, {}, { v: [2] }], [1, 2]],
    ['an empty array without input', { $concatArrays: '$v' }, [{}, {}], []],
    ['keeps duplicates and types', { $concatArrays: '$v' }, [{ v: [1, new Double(1)] }, { v: [Long.fromNumber(1)] }], [1, new Double(1), Long.fromNumber(1)]],
    ['keeps null elements', { $concatArrays: '$v' }, [{ v: [null] }, { v: [] }], [null]],
  ]);
  groupErrorTable([
    ['null is not an array', { $concatArrays: '$v' }, [{ v: [1] }, { v: null }], 14, '$concatArrays requires array inputs, but input null is of type null'],
    ['an Int32 is not an array', { $concatArrays: '$v' }, [{ v: 5 }], 14, '$concatArrays requires array inputs, but input 5 is of type int'],
    ['a string is not an array', { $concatArrays: '$v' }, [{ v: 'ab' }], 14, '$concatArrays requires array inputs, but input "ab" is of type string'],
    ['a constant is checked per document', { $concatArrays: true }, [{}], 14, '$concatArrays requires array inputs, but input true is of type bool'],
  ]);
});

describe('$setUnion', () => {
  groupTable([
    ['the distinct elements, first seen kept', { $setUnion: '$v' }, [{ v: [1, 2] }, { v: [2, 3] }, { v: [3, 1] }], [1, 2, 3]],
    ['numbers equal across types are one element (the first)', { $setUnion: '$v' }, [{ v: [new Double(1)] }, { v: [1, Long.fromNumber(1), Decimal128.fromString('1.0')] }], [new Double(1)]],
    ['deduplicates inside one array', { $setUnion: '$v' }, [{ v: [4, 4, 4] }], [4]],
    ['arrays and documents compare whole', { $setUnion: '$v' }, [{ v: [[1, 2], { a: 1 }] }, { v: [[2, 1], { a: 1 }] }], [[1, 2], { a: 1 }, [2, 1]]],
    ['skips missing inputs', { $setUnion: '$v' }, [{}, { v: [null] }], [null]],
    ['an empty array without input', { $setUnion: '$v' }, [{}], []],
  ]);
  groupErrorTable([
    ['null is not an array', { $setUnion: '$v' }, [{ v: null }], 14, '$setUnion requires array inputs, but input null is of type null'],
    ['a document is not an array', { $setUnion: '$v' }, [{ v: [1] }, { v: { a: 1 } }], 14, '$setUnion requires array inputs, but input {a: 1} is of type object'],
    ['a Double is not an array', { $setUnion: '$v' }, [{ v: 2.5 }], 14, '$setUnion requires array inputs, but input 2.5 is of type double'],
  ]);
});
