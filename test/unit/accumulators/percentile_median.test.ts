/** `$percentile` and `$median` in `$group` (accumulator_percentile.cpp): Doubles of the numeric inputs. */
import { describe } from 'vitest';
import { Double, Long } from '../../../src/bson/library.js';
import { groupErrorTable, groupTable } from './helpers.js';

const DOCS = [{ v: 30 }, { v: 10 }, { v: 'x' }, { v: 20 }, {}, { v: Long.fromNumber(40) }];

describe('$percentile and $median', () => {
  groupTable([
    ['$percentile approximate: the value of rank ⌈p·n⌉', { $percentile: { input: '$v', p: [0.5, 0.75, 0, 1], method: 'approximate' } }, DOCS, [new Double(20), new Double(30), new Double(10), new Double(40)]],
    ['$percentile discrete', { $percentile: { input: '$v', p: [0.25], method: 'discrete' } }, DOCS, [new Double(10)]],
    ['$percentile continuous interpolates', { $percentile: { input: '$v', p: [0.5], method: 'continuous' } }, DOCS, [new Double(25)]],
    ['$percentile without numbers: nulls', { $percentile: { input: '$v', p: [0.1, 0.9], method: 'approximate' } }, [{ v: 'a' }], [null, null]],
    ['$median', { $median: { input: '$v', method: 'approximate' } }, [{ v: 10 }, { v: 20 }, { v: 30 }], new Double(20)],
    ['p as a $literal array', { $percentile: { input: '$v', p: { $literal: [1] }, method: 'discrete' } }, DOCS, [new Double(40)]],
    ['$median without numbers: null', { $median: { input: '$v', method: 'approximate' } }, [{}], null],
  ]);
  groupErrorTable([
    ['$percentile not an object', { $percentile: 1 }, [{}], 7429703, 'specification must be an object; found $percentile: 1'],
    ['p out of range', { $percentile: { input: '$v', p: [0.5, 1.5], method: 'approximate' } }, [{}], 7750303, "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: 1.5"],
    ['p not numeric', { $percentile: { input: '$v', p: [0.5, 'x'], method: 'approximate' } }, [{}], 7750302, "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: \"x\""],
    ['p not constant', { $percentile: { input: '$v', p: '$ps', method: 'approximate' } }, [{}], 7750300, "The $percentile 'p' field must be an array of constant values, but found value: \"$ps\"."],
    ['p a $literal', { $percentile: { input: '$v', p: { $literal: 0.5 }, method: 'approximate' } }, [{}], 7750301, "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: 0.5"],
    ['an unknown method', { $percentile: { input: '$v', p: [0.5], method: 'exact' } }, [{}], 2, "Currently only 'approximate', 'discrete', and 'continuous' can be used as percentile 'method'."],
    ['$median not an object', { $median: 'x' }, [{}], 7436100, 'specification must be an object; found $median: "x"'],
    ['p empty', { $percentile: { input: '$v', p: [], method: 'approximate' } }, [{}], 7750301, "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: []"],
    ['p missing', { $percentile: { input: '$v', method: 'approximate' } }, [{}], 40414, "BSON field '$percentile.p' is missing but a required field"],
    ['method missing', { $median: { input: '$v' } }, [{}], 40414, "BSON field '$median.method' is missing but a required field"],
    ['an unknown field', { $median: { input: '$v', method: 'approximate', p: [0.5] } }, [{}], 40415, "BSON field '$median.p' is an unknown field."],
  ]);
});
