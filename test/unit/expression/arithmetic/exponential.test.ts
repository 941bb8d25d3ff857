/**
 * `$exp`, `$ln`, `$log`, `$log10`, `$sqrt`, `$pow`, `$sigmoid`: Doubles from numbers,
 * Decimal128 from Decimal128 rounded to 34 digits as mongod 8.2 writes them, integer `$pow`
 * widening, and the domain errors (manual pages and the recorded conformance cases).
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC: Document = { _id: 1, n: null };
const dec = (s: string) => Decimal128.fromString(s);

describe('$exp', () => {
  valueRows([
    ['of 0 is a Double 1', { $exp: 0 }, new Double(1)],
    ['of 1', { $exp: 1 }, 2.718281828459045],
    ['of a decimal 1', { $exp: dec('1') }, dec('2.718281828459045235360287471352662')],
    ['of a decimal 0 is 1', { $exp: dec('0') }, dec('1')],
    ['of a decimal -Infinity is 0', { $exp: dec('-Infinity') }, dec('0')],
    ['of the smallest decimal underflows to 0E-6176', { $exp: dec('-9.999999999999999999999999999999999E+6144') }, dec('0E-6176')],
    ['of null', { $exp: '$n' }, null],
  ], DOC);
  errorRows([['of a string', { $exp: 'x' }, 28765, '$exp only supports numeric types, not string']], DOC);
});

describe('$ln and $log10', () => {
  valueRows([
    ['ln of 1 is a Double 0', { $ln: 1 }, new Double(0)],
    ['ln of a Long', { $ln: Long.fromNumber(10) }, 2.302585092994046],
    ['ln of a decimal 10', { $ln: dec('10') }, dec('2.302585092994045684017991454684364')],
    ['ln of a decimal 1', { $ln: dec('1') }, dec('0')],
    ['ln of a decimal NaN is a Double NaN', { $ln: dec('NaN') }, NaN],
    ['log10 of 100', { $log10: 100 }, new Double(2)],
    ['log10 of a decimal 100 is short', { $log10: dec('100') }, dec('2')],
    ['log10 of a decimal 2 keeps 34 digits', { $log10: dec('2') }, dec('0.3010299956639811952137388947244930')],
    ['log10 of null', { $log10: null }, null],
  ], DOC);
  errorRows([
    ['ln of 0', { $ln: 0 }, 28766, "$ln's argument must be a positive number, but is 0"],
    ['ln of -1', { $ln: -1 }, 28766, "$ln's argument must be a positive number, but is -1"],
    ['ln of a decimal -2.5', { $ln: dec('-2.5') }, 28766, "$ln's argument must be a positive number, but is -2.5"],
    ['log10 of 0', { $log10: 0 }, 28761, "$log10's argument must be a positive number, but is 0"],
    ['log10 of a date', { $log10: new Date(0) }, 28765, '$log10 only supports numeric types, not date'],
  ], DOC);
});

describe('$log', () => {
  valueRows([
    ['of 100 in base 10', { $log: [100, 10] }, new Double(2)],
    ['of 8 in base 2', { $log: [8, 2] }, new Double(3)],
    ['of a decimal 1000 in base 10 (ln / ln)', { $log: [dec('1000'), 10] }, dec('3.000000000000000000000000000000000')],
    ['of a decimal 64 in base 2 (ln / ln)', { $log: [dec('64'), dec('2')] }, dec('5.999999999999999999999999999999999')],
    ['a null base', { $log: [10, null] }, null],
  ], DOC);
  errorRows([
    ['a string argument', { $log: ['a', 10] }, 28756, "$log's argument must be numeric, not string"],
    ['a string base', { $log: [10, 'a'] }, 28757, "$log's base must be numeric, not string"],
    ['a negative argument', { $log: [-1, 10] }, 28758, "$log's argument must be a positive number, but is -1"],
    ['base 1', { $log: [10, 1] }, 28759, "$log's base must be a positive number not equal to 1, but is 1"],
    ['a decimal base 1', { $log: [10, dec('1')] }, 28759, "$log's base must be a positive number not equal to 1, but is 1"],
    ['one argument', { $log: [10] }, 16020, 'Expression $log takes exactly 2 arguments. 1 were passed in.'],
  ], DOC);
});

describe('$sqrt', () => {
  valueRows([
    ['of 25', { $sqrt: 25 }, new Double(5)],
    ['of 2', { $sqrt: 2 }, 1.4142135623730951],
    ['of NaN', { $sqrt: NaN }, NaN],
    ['of a decimal 2', { $sqrt: dec('2') }, dec('1.414213562373095048801688724209698')],
    ['of a decimal 0.5 keeps 34 digits', { $sqrt: dec('0.5') }, dec('0.7071067811865475244008443621048490')],
    ['of a decimal 1.0 keeps the scale', { $sqrt: dec('1.0') }, dec('1.0')],
    ['of a decimal 1E+6144 at the preferred exponent', { $sqrt: dec('1E+6144') }, dec('1.00000000000000000E+3072')],
    ['of a decimal -0', { $sqrt: dec('-0') }, dec('-0')],
  ], DOC);
  errorRows([
    ['of -1', { $sqrt: -1 }, 28714, "$sqrt's argument must be greater than or equal to 0"],
    ['of a decimal -1', { $sqrt: dec('-1') }, 28714, "$sqrt's argument must be greater than or equal to 0"],
  ], DOC);
});

describe('$pow', () => {
  valueRows([
    ['Int32 to Int32', { $pow: [5, 2] }, 25],
    ['Int32 overflowing Int32 becomes Int64', { $pow: [2, 31] }, Long.fromString('2147483648')],
    ['Int32 overflowing Int64 becomes Double', { $pow: [2, 63] }, 9223372036854775808],
    ['an Int64 operand makes an Int64', { $pow: [Long.fromNumber(2), 3] }, Long.fromNumber(8)],
    ['a negative exponent makes a Double', { $pow: [2, -1] }, 0.5],
    ['-1 to an odd negative power', { $pow: [-1, -3] }, -1],
    ['0 to the 0', { $pow: [0, 0] }, 1],
    ['a Double', { $pow: [2.5, 2] }, new Double(6.25)],
    ['a decimal keeps 34 digits', { $pow: [dec('2'), 3] }, dec('8.000000000000000000000000000000000')],
    ['a decimal 1.5 squared', { $pow: [dec('1.5'), 2] }, dec('2.250000000000000000000000000000000')],
    ['a decimal -0 to an odd power is 0E-6176', { $pow: [dec('-0'), 3] }, dec('0E-6176')],
    ['a null exponent', { $pow: [2, null] }, null],
  ], DOC);
  errorRows([
    ['a string base', { $pow: ['a', 2] }, 28762, "$pow's base must be numeric, not string"],
    ['a string exponent', { $pow: [2, 'a'] }, 28763, "$pow's exponent must be numeric, not string"],
    ['0 to a negative power', { $pow: [0, -1] }, 28764, '$pow cannot take a base of 0 and a negative exponent'],
    ['a decimal 0 to a negative power', { $pow: [dec('0'), -2] }, 28764, '$pow cannot take a base of 0 and a negative exponent'],
  ], DOC);
});

describe('$sigmoid', () => {
  valueRows([
    ['of 0', { $sigmoid: 0 }, 0.5],
    ['of 1', { $sigmoid: 1 }, 0.7310585786300049],
    ['of a decimal 1', { $sigmoid: dec('1') }, dec('0.7310585786300048792511592418218362')],
    ['of a decimal -1', { $sigmoid: dec('-1') }, dec('0.2689414213699951207488407581781638')],
    ['of the smallest decimal', { $sigmoid: dec('-9.999999999999999999999999999999999E+6144') }, dec('0E-6176')],
    ['of null', { $sigmoid: null }, null],
  ], DOC);
  errorRows([
    ['of a string', { $sigmoid: 'a' }, 14, '$sigmoid only supports numeric types, not string'],
    ['of a one-element array (never an argument list)', { $sigmoid: [1] }, 14, '$sigmoid only supports numeric types, not array'],
  ], DOC);
});
