/** `$mergeObjects` in `$group` (accumulator_merge_objects.cpp; 8.2's SBE code 5911200). */
import { describe } from 'vitest';
import { Long, MinKey } from '../../../src/bson/library.js';
import { groupErrorTable, groupTable } from './helpers.js';

describe('$mergeObjects', () => {
  groupTable([
    ['merges the fields, later values win in place', { $mergeObjects: '$v' }, [{ v: { a: 1, b: 1 } }, { v: { c: 2 } }, { v: { a: 3 } }], { a: 3, b: 1, c: 2 }],
    ['null and missing inputs are skipped', { $mergeObjects: '$v' }, [{ v: null }, {}, { v: { a: 1 } }], { a: 1 }],
    ['an empty document without input', { $mergeObjects: '$v' }, [{}], {}],
    ['a later null value replaces', { $mergeObjects: '$v' }, [{ v: { a: 1 } }, { v: { a: null } }], { a: null }],
    ['embedded documents are replaced, not merged', { $mergeObjects: '$v' }, [{ v: { a: { x: 1 } } }, { v: { a: { y: 2 } } }], { a: { y: 2 } }],
    ['values keep their types', { $mergeObjects: '$v' }, [{ v: { a: Long.fromNumber(1), b: new MinKey() } }], { a: Long.fromNumber(1), b: new MinKey() }],
  ]);
  groupErrorTable([
    ['a string', { $mergeObjects: '$v' }, [{ v: 'x' }], 5911200, '$mergeObjects requires object inputs, but input "x" is of type string'],
    ['an array', { $mergeObjects: '$v' }, [{ v: { a: 1 } }, { v: [1] }], 5911200, '$mergeObjects requires object inputs, but input [1] is of type array'],
    ['an Int32 constant', { $mergeObjects: 1 }, [{}], 5911200, '$mergeObjects requires object inputs, but input 1 is of type int'],
  ]);
});
