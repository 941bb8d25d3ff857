/**
 * The trigonometric operators: Doubles from Int32 / Int64 / Double, Decimal128 from Decimal128,
 * NaN through the bounded ones unchanged, the domain errors 50989, type errors 28765 and
 * `$atan2`'s 51044 / 51045 (manual pages of each operator).
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC: Document = { _id: 1, n: null };
const dec = (s: string) => Decimal128.fromString(s);

describe('circular functions', () => {
  valueRows([
    ['sin of an Int32 0 is a Double', { $sin: 0 }, new Double(0)],
    ['sin of 1', { $sin: 1 }, 0.8414709848078965],
    ['cos of 0', { $cos: 0 }, new Double(1)],
    ['cos of an Int64', { $cos: Long.fromNumber(1) }, 0.5403023058681398],
    ['tan of 1', { $tan: 1 }, 1.5574077246549023],
    ['asin of 1', { $asin: 1 }, 1.5707963267948966],
    ['acos of 1', { $acos: 1 }, new Double(0)],
    ['acos of -1', { $acos: -1 }, 3.141592653589793],
    ['atan of 1', { $atan: 1 }, 0.7853981633974483],
    ['atan of Infinity', { $atan: Infinity }, 1.5707963267948966],
    ['sin of NaN is NaN', { $sin: NaN }, NaN],
    ['acos of a decimal NaN is the NaN', { $acos: dec('NaN') }, dec('NaN')],
    ['sin of a decimal 0', { $sin: dec('0') }, dec('0')],
    ['cos of a decimal 0', { $cos: dec('0') }, dec('1')],
    ['sin of a decimal 1', { $sin: dec('1') }, dec('0.8414709848078965066525023216302990')],
    ['acos of a decimal 0', { $acos: dec('0') }, dec('1.570796326794896619231321691639751')],
    ['atan of a decimal 1', { $atan: dec('1') }, dec('0.7853981633974483096156608458198757')],
    ['sin of null', { $sin: null }, null],
    ['cos of missing', { $cos: '$nope' }, null],
  ], DOC);
  errorRows([
    ['acos of 2', { $acos: 2 }, 50989, 'cannot apply $acos to 2, value must be in [-1,1]'],
    ['asin of -1.5', { $asin: -1.5 }, 50989, 'cannot apply $asin to -1.5, value must be in [-1,1]'],
    ['asin of a decimal 1.0001', { $asin: dec('1.0001') }, 50989, 'cannot apply $asin to 1.0001, value must be in [-1,1]'],
    ['sin of Infinity', { $sin: Infinity }, 50989, 'cannot apply $sin to inf, value must be in (-inf,inf)'],
    ['cos of a decimal -Infinity', { $cos: dec('-Infinity') }, 50989, 'cannot apply $cos to -Infinity, value must be in (-inf,inf)'],
    ['tan of a string', { $tan: 'a' }, 28765, '$tan only supports numeric types, not string'],
    ['sin of two arguments', { $sin: [1, 2] }, 16020, 'Expression $sin takes exactly 1 arguments. 2 were passed in.'],
  ], DOC);
});

describe('hyperbolic functions', () => {
  valueRows([
    ['sinh of 1', { $sinh: 1 }, 1.1752011936438014],
    ['cosh of 0', { $cosh: 0 }, new Double(1)],
    ['tanh of 1', { $tanh: 1 }, 0.7615941559557649],
    ['asinh of 1', { $asinh: 1 }, 0.881373587019543],
    ['acosh of 1', { $acosh: 1 }, new Double(0)],
    ['acosh of Infinity', { $acosh: Infinity }, Infinity],
    ['atanh of 0.5', { $atanh: 0.5 }, 0.5493061443340548],
    ['atanh of 1 is Infinity', { $atanh: 1 }, Infinity],
    ['tanh of a decimal 0', { $tanh: dec('0') }, dec('0')],
    ['cosh of a decimal 1', { $cosh: dec('1') }, dec('1.543080634815243778477905620757062')],
  ], DOC);
  errorRows([
    ['acosh of 0.5', { $acosh: 0.5 }, 50989, 'cannot apply $acosh to 0.5, value must be in [1,inf]'],
    ['atanh of 2', { $atanh: 2 }, 50989, 'cannot apply $atanh to 2, value must be in [-1,1]'],
    ['sinh of a bool', { $sinh: true }, 28765, '$sinh only supports numeric types, not bool'],
  ], DOC);
});

describe('$atan2', () => {
  valueRows([
    ['of (1, 1)', { $atan2: [1, 1] }, 0.7853981633974483],
    ['of (0, -1)', { $atan2: [0, -1] }, 3.141592653589793],
    ['of (0, 0)', { $atan2: [0, 0] }, new Double(0)],
    ['a decimal operand makes a Decimal128', { $atan2: [dec('1'), 1] }, dec('0.7853981633974483096156608458198757')],
    ['a null y', { $atan2: [null, 'a'] }, null],
    ['a null x', { $atan2: [1, null] }, null],
  ], DOC);
  errorRows([
    ['a string y', { $atan2: ['a', 1] }, 51044, '$atan2 only supports numeric types, not string'],
    ['a string x', { $atan2: [1, 'a'] }, 51045, '$atan2 only supports numeric types, not string'],
    ['one argument', { $atan2: [1] }, 16020, 'Expression $atan2 takes exactly 2 arguments. 1 were passed in.'],
  ], DOC);
});

describe('$degreesToRadians and $radiansToDegrees', () => {
  valueRows([
    ['180 degrees', { $degreesToRadians: 180 }, 3.141592653589793],
    ['0 degrees', { $degreesToRadians: 0 }, new Double(0)],
    ['pi radians', { $radiansToDegrees: 3.141592653589793 }, new Double(180)],
    ['a decimal 180 degrees (exact product, rounded)', { $degreesToRadians: dec('180') }, dec('3.141592653589793238462643383279503')],
    ['a decimal 1 radian', { $radiansToDegrees: dec('1') }, dec('57.29577951308232087679815481410517')],
    ['null', { $radiansToDegrees: null }, null],
  ], DOC);
  errorRows([['a string', { $degreesToRadians: 'a' }, 28765, '$degreesToRadians only supports numeric types, not string']], DOC);
});
