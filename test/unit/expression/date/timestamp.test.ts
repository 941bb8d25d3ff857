/**
 * `$tsSecond` and `$tsIncrement` (mongod 8.2 ExpressionTsSecond / ExpressionTsIncrement): the two
 * halves of a Timestamp as Int64s (unsigned 32-bit values), null for null or missing, and the
 * type error for anything else.
 */
import { describe } from 'vitest';
import { Long, Timestamp } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, parseErrorRows, valueRowsWithDoc } from '../helpers.js';
import { utc } from './utc.js';

describe('$tsSecond and $tsIncrement', () => {
  valueRowsWithDoc([
    ['the seconds', { $tsSecond: '$t' }, { t: new Timestamp({ t: 1622731060, i: 10 }) }, Long.fromNumber(1622731060)],
    ['the increment', { $tsIncrement: '$t' }, { t: new Timestamp({ t: 1622731060, i: 10 }) }, Long.fromNumber(10)],
    ['the largest seconds are unsigned', { $tsSecond: '$t' }, { t: new Timestamp({ t: 4294967295, i: 1 }) }, Long.fromNumber(4294967295)],
    ['the largest increment is unsigned', { $tsIncrement: '$t' }, { t: new Timestamp({ t: 1, i: 4294967295 }) }, Long.fromNumber(4294967295)],
    ['a zero Timestamp', { $tsSecond: '$t' }, { t: new Timestamp({ t: 0, i: 0 }) }, Long.fromNumber(0)],
    ['the argument in an array', { $tsIncrement: ['$t'] }, { t: new Timestamp({ t: 5, i: 7 }) }, Long.fromNumber(7)],
    ['null', { $tsSecond: null }, {}, null],
    ['missing', { $tsIncrement: '$nope' }, {}, null],
  ]);
  errorRowsWithDoc([
    ['$tsSecond of a date', { $tsSecond: '$d' }, { d: utc(2021, 1, 1) }, 5687301, ' Argument to $tsSecond must be a timestamp, but is date'],
    ['$tsSecond of a number', { $tsSecond: 1 }, {}, 5687301, ' Argument to $tsSecond must be a timestamp, but is int'],
    ['$tsIncrement of a string', { $tsIncrement: '$s' }, { s: 'x' }, 5687302, ' Argument to $tsIncrement must be a timestamp, but is string'],
    ['$tsIncrement of an Int64', { $tsIncrement: '$l' }, { l: Long.fromNumber(5) }, 5687302, ' Argument to $tsIncrement must be a timestamp, but is long'],
  ]);
  parseErrorRows([
    ['parse: $tsSecond of two arguments', { $tsSecond: [1, 2] }, 16020, 'Expression $tsSecond takes exactly 1 arguments. 2 were passed in.'],
    ['parse: $tsIncrement of none', { $tsIncrement: [] }, 16020, 'Expression $tsIncrement takes exactly 1 arguments. 0 were passed in.'],
  ]);
});
