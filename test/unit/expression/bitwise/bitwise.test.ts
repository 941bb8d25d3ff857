/**
 * `$bitAnd`, `$bitOr`, `$bitXor`, `$bitNot`: Int32 and Int64 only (an Int64 operand makes an
 * Int64), the identities of the empty list, null or missing making null, and mongod's type
 * errors (manual pages of each operator).
 */
import { describe, it } from 'vitest';
import { Decimal128, Long, type Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

const DOC: Document = { _id: 1, n: null };
const evaluate = (expr: unknown) => new ExpressionContext({ now: new Date(0) }).compile(expr)(DOC);

function table(rows: Array<[string, unknown, unknown]>): void {
  for (const [name, expr, expected] of rows) it(name, () => expectExact({ v: evaluate(expr) }, { v: expected }));
}

function errors(rows: Array<[string, unknown, number, string]>): void {
  for (const [name, expr, code, message] of rows) it(name, () => expectCommandError(() => evaluate(expr), code, message));
}

describe('$bitAnd, $bitOr, $bitXor', () => {
  table([
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
  ]);
  errors([
    ['a double', { $bitAnd: [1, 1.5] }, 14, '$bitAnd only supports int and long operands.'],
    ['a decimal', { $bitOr: [Decimal128.fromString('1')] }, 14, '$bitOr only supports int and long operands.'],
    ['a string', { $bitXor: ['a', 1] }, 14, '$bitXor only supports int and long operands.'],
  ]);
});

describe('$bitNot', () => {
  table([
    ['of an Int32', { $bitNot: 5 }, -6],
    ['of -1', { $bitNot: -1 }, 0],
    ['of an Int64', { $bitNot: Long.fromNumber(5) }, Long.fromNumber(-6)],
    ['of the largest Int64', { $bitNot: Long.fromString('9223372036854775807') }, Long.fromString('-9223372036854775808')],
    ['of null', { $bitNot: null }, null],
  ]);
  errors([
    ['of a double', { $bitNot: 1.5 }, 14, '$bitNot only supports int and long, not: double.'],
    ['of a decimal', { $bitNot: Decimal128.fromString('1') }, 14, '$bitNot only supports int and long, not: decimal.'],
    ['of a string', { $bitNot: 'a' }, 28765, '$bitNot only supports numeric types, not string'],
    ['of two arguments', { $bitNot: [1, 2] }, 16020, 'Expression $bitNot takes exactly 1 arguments. 2 were passed in.'],
  ]);
});
