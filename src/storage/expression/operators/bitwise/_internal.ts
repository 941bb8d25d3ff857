/**
 * `$bitAnd`, `$bitOr`, `$bitXor` (ExpressionBitwise): the operation over Int32 and Int64
 * arguments, an Int32 while every argument is one, else an Int64; no arguments give the
 * identity (Int32 -1 for and, 0 for or and xor); null or missing makes null; anything else is
 * 14 TypeMismatch.
 */
import { Long } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { numKind, toBigInt } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';

/** A variadic bitwise operator. */
export function bitwiseOperator(name: `$${string}`, identity: bigint, op: (a: bigint, b: bigint) => bigint): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const args = scope.parseArguments(arg);
      return (frame) => {
        let acc = identity;
        let long = false;
        for (const a of args) {
          const v = a(frame);
          if (isNullish(v)) return null;
          const kind = numKind(v);
          if (kind !== 'int' && kind !== 'long') {
            throw new CommandError('TypeMismatch', `${name} only supports int and long operands.`);
          }
          if (kind === 'long') long = true;
          acc = op(acc, toBigInt(v));
        }
        return long ? Long.fromBigInt(BigInt.asIntN(64, acc)) : Number(BigInt.asIntN(32, acc));
      };
    },
  };
}
