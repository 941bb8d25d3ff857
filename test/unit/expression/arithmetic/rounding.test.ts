/**
 * `$ceil`, `$floor`, `$round`, `$trunc`: results in the argument's type, Decimal128 quantized as
 * IEEE 754-2008 does, places in [-20, 100], and mongod's codes (manual pages and the recorded
 * mongod 8.2 conformance cases).
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC: Document = { _id: 1, n: null };
const dec = (s: string) => Decimal128.fromString(s);

describe('$ceil and $floor', () => {
  valueRows([
    ['ceil of a double', { $ceil: 1.2 }, new Double(2)],
    ['ceil of a negative double', { $ceil: -1.2 }, new Double(-1)],
    ['ceil of -0.5 is -0', { $ceil: -0.5 }, -0],
    ['ceil of an Int32 is the Int32', { $ceil: 7 }, 7],
    ['ceil of an Int64 is the Int64', { $ceil: Long.fromNumber(7) }, Long.fromNumber(7)],
    ['ceil of a decimal', { $ceil: dec('1.01') }, dec('2')],
    ['floor of a double', { $floor: 1.8 }, new Double(1)],
    ['floor of a negative double', { $floor: -1.2 }, new Double(-2)],
    ['floor of a decimal', { $floor: dec('-1.01') }, dec('-2')],
    ['floor of a decimal infinity is NaN', { $floor: dec('Infinity') }, dec('NaN')],
    ['floor of the largest decimal is NaN (34 digits overflow)', { $floor: dec('9.999999999999999999999999999999999E+6144') }, dec('NaN')],
    ['floor of a double infinity is the infinity', { $floor: Infinity }, Infinity],
    ['floor of null is null', { $floor: '$n' }, null],
    ['floor of missing is null', { $floor: '$nope' }, null],
  ], DOC);
  errorRows([
    ['ceil of a string', { $ceil: 'a' }, 28765, '$ceil only supports numeric types, not string'],
    ['floor of two arguments', { $floor: [1, 2] }, 16020, 'Expression $floor takes exactly 1 arguments. 2 were passed in.'],
  ], DOC);
});

describe('$round', () => {
  valueRows([
    ['19.25 at 1 place (half to even)', { $round: [19.25, 1] }, 19.2],
    ['28.73 at 1 place', { $round: [28.73, 1] }, 28.7],
    ['-45.39 at 1 place', { $round: [-45.39, 1] }, -45.4],
    ['10.5 to an integer (even)', { $round: [10.5] }, new Double(10)],
    ['11.5 to an integer (even)', { $round: 11.5 }, new Double(12)],
    ['-12.5 to an integer (even)', { $round: [-12.5, 0] }, new Double(-12)],
    ['1234.5678 at -2', { $round: [1234.5678, -2] }, new Double(1200)],
    ['an Int32 at -2', { $round: [1250, -2] }, 1200],
    ['an Int32 at a positive place is unchanged', { $round: [1234, 2] }, 1234],
    ['an Int64 stays an Int64', { $round: [Long.fromNumber(1350), -2] }, Long.fromNumber(1400)],
    ['an Int32 outgrowing Int32 becomes an Int64', { $round: [2147483647, -1] }, Long.fromString('2147483650')],
    ['a decimal at 2 places', { $round: [dec('1.2345'), 2] }, dec('1.23')],
    ['a decimal half at 1 place (even)', { $round: [dec('0.25'), 1] }, dec('0.2')],
    ['a decimal padded to the place', { $round: [dec('1.5'), 3] }, dec('1.500')],
    ['a decimal whose place needs over 34 digits is unchanged', { $round: [dec('1.123456789012345678901234567890123'), 34] }, dec('1.123456789012345678901234567890123')],
    ['the largest decimal is unchanged', { $round: [dec('9.999999999999999999999999999999999E+6144'), 0] }, dec('9.999999999999999999999999999999999E+6144')],
    ['1e308 is unchanged', { $round: [1e308, 0] }, 1e308],
    ['a decimal infinity is unchanged', { $round: [dec('-Infinity'), 2] }, dec('-Infinity')],
    ['NaN is NaN', { $round: [NaN, 2] }, NaN],
    ['a null number is null', { $round: ['$n', 2] }, null],
    ['a null place is null', { $round: [1.5, '$n'] }, null],
  ], DOC);
  errorRows([
    ['a string', { $round: ['a', 1] }, 51081, '$round only supports numeric types, not string'],
    ['place 101', { $round: [1.5, 101] }, 51083, 'cannot apply $round with precision value 101 value must be in [-20, 100]'],
    ['place -21', { $round: [1.5, -21] }, 51083, 'cannot apply $round with precision value -21 value must be in [-20, 100]'],
    ['a fractional place', { $round: [1, 10.5] }, 51082, 'precision argument to  $round must be a integral value'],
    ['a place beyond Int32', { $round: [1, Long.fromString('4294967296')] }, 51082, 'precision argument to  $round must be a integral value'],
    ['a decimal NaN place', { $round: [1, dec('NaN')] }, 51082, 'precision argument to  $round must be a integral value'],
    ['a NaN place', { $round: [1, NaN] }, 31109, "Can't coerce out of range value nan to long"],
    ['a string place', { $round: [1, '2'] }, 16004, "can't convert from BSON type string to long"],
    ['no arguments', { $round: [] }, 28667, 'Expression $round takes at least 1 arguments, and at most 2, but 0 were passed in.'],
    ['three arguments', { $round: [1, 2, 3] }, 28667, 'Expression $round takes at least 1 arguments, and at most 2, but 3 were passed in.'],
    [
      'an Int64 rounding beyond Int64',
      { $round: [Long.fromString('9223372036854775807'), -19] },
      51080,
      'invalid conversion from Decimal128 result in $round resulting from arguments: [9223372036854775807, -19]',
    ],
  ], DOC);
});

describe('$trunc', () => {
  valueRows([
    ['19.25 at 1 place', { $trunc: [19.25, 1] }, 19.2],
    ['-45.39 at 1 place', { $trunc: [-45.39, 1] }, -45.3],
    ['a double to an integer', { $trunc: 7.9 }, new Double(7)],
    ['1234.5678 at -2', { $trunc: [1234.5678, -2] }, new Double(1200)],
    ['an Int32 at -1', { $trunc: [1299, -1] }, 1290],
    ['a decimal at 2 places', { $trunc: [dec('-1.2399'), 2] }, dec('-1.23')],
    ['a decimal at 100 places is unchanged', { $trunc: [dec('1.123456789012345678901234567890123'), 100] }, dec('1.123456789012345678901234567890123')],
    ['null is null', { $trunc: null }, null],
  ], DOC);
  errorRows([
    ['an object', { $trunc: {} }, 51081, '$trunc only supports numeric types, not object'],
    ['place 101', { $trunc: [1.5, 101] }, 51083, 'cannot apply $trunc with precision value 101 value must be in [-20, 100]'],
  ], DOC);
});
