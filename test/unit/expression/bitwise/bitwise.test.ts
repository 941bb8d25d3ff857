/**
 * `$bitAnd`, `$bitOr`, `$bitXor`, `$bitNot`: Int32 and Int64 only (an Int64 operand makes an
 * Int64), the identities of the empty list, null or missing making null, and mongod's type
 * errors (manual pages of each operator).
 */
import { describe } from 'vitest';
import { Decimal128, Long, type Document } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC: Document = { _id: 1, n: null };

describe('$bitAnd, $bitOr, $bitXor', () => {
  valueRows([
    ['and of two Int32', { $bitAnd: [0b1100, 0b1010] }, 0b1000],
    ['or of two Int32', { $bitOr: [0b1100, 0b1010] }, 0b1110],
    ['xor of two Int32', { $bitXor: [0b1100, 0b1010] }, 0b0110],
    ['and of three', { $bitAnd: [7, 6, 3] }, 2],
    ['an Int64 makes an Int64', { $bitOr: [1, Long.fromNumber(2)] }, Long.fromNumber(3)],
    ['Int64 high bits', { $bitAnd: [Long.fromString('-1'), Long.fromString('4294967296')] }, Long.fromString('4294967296')],
    ['negative Int32', { $bitXor: [-1, 5] }, -6],
    ['one argument', { $bitAnd: 5 }, 5],
    ['no arguments: and is -1', { $bitAnd: [] }, -1],
    ['no arguments: or is 0', { $bitOr: [] }, 0],
    ['no arguments: xor is 0', { $bitXor: [] }, 0],
    ['a null operand', { $bitOr: [1, null] }, null],
    ['a missing operand', { $bitAnd: [1, '$nope'] }, null],
  ], DOC);
  errorRows([
    ['a double', { $bitAnd: [1, 1.5] }, 14, '$bitAnd only supports int and long operands.'],
    ['a decimal', { $bitOr: [Decimal128.fromString('1')] }, 14, '$bitOr only supports int and long operands.'],
    ['a string', { $bitXor: ['a', 1] }, 14, '$bitXor only supports int and long operands.'],
  ], DOC);
});

describe('$bitNot', () => {
  valueRows([
    ['of an Int32', { $bitNot: 5 }, -6],
    ['of -1', { $bitNot: -1 }, 0],
    ['of an Int64', { $bitNot: Long.fromNumber(5) }, Long.fromNumber(-6)],
    ['of the largest Int64', { $bitNot: Long.fromString('9223372036854775807') }, Long.fromString('-9223372036854775808')],
    ['of null', { $bitNot: null }, null],
  ], DOC);
  errorRows([
    ['of a double', { $bitNot: 1.5 }, 14, '$bitNot only supports int and long, not: double.'],
    ['of a decimal', { $bitNot: Decimal128.fromString('1') }, 14, '$bitNot only supports int and long, not: decimal.'],
    ['of a string', { $bitNot: 'a' }, 28765, '$bitNot only supports numeric types, not string'],
    ['of two arguments', { $bitNot: [1, 2] }, 16020, 'Expression $bitNot takes exactly 1 arguments. 2 were passed in.'],
  ], DOC);
});
