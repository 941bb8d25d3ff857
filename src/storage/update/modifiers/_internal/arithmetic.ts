/**
 * The arithmetic of `$inc` and `$mul` (arithmetic_node.cpp, mongo/util/safe_num.cpp): Int32
 * results widen to Int64 on overflow, an Int64 overflow fails the update (BadValue), any Double gives a Double,
 * any Decimal128 a Decimal128. A missing field is created with the increment, or with a zero
 * of the multiplier's type. A result identical in type and value is a no-op.
 */
import { Long } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { toDouble, addNumbers, multiplyNumbers, doubleOf, fitsLong, intOrLong, numKind, toBigInt, widest } from '../../../values/numeric.js';
import { formatElement } from '../../../values/format.js';
import { identicalValues } from '../../identical.js';
import { fieldName, idText } from './id_text.js';
import { NOOP, type ModifierParser } from '../types.js';

const INVALID: unique symbol = Symbol('safe_num.invalid');

function safeArithmetic(multiply: boolean, a: unknown, b: unknown): unknown {
  const k = widest(numKind(a)!, numKind(b)!);
  switch (k) {
    case 'int':
    case 'long': {
      const r = multiply ? toBigInt(a) * toBigInt(b) : toBigInt(a) + toBigInt(b);
      if (!fitsLong(r)) return INVALID;
      return k === 'int' ? intOrLong(r) : Long.fromBigInt(r);
    }
    case 'double':
      return doubleOf(multiply ? toDouble(a) * toDouble(b) : toDouble(a) + toDouble(b));
    default:
      return multiply ? multiplyNumbers(a, b) : addNumbers(a, b);
  }
}

function debugString(v: unknown): string {
  switch (bsonTypeOf(v)) {
    case 'int':
      return `(NumberInt)${String(v)}`;
    case 'long':
      return `(NumberLong)${String(v)}`;
    case 'double':
      return `(NumberDouble)${String(toDouble(v))}`;
    default:
      return `(NumberDecimal)${String(v)}`;
  }
}

function sameNumber(a: unknown, b: unknown): boolean {
  if (bsonTypeOf(a) !== bsonTypeOf(b)) return false;
  if (bsonTypeOf(a) === 'double') return toDouble(a) === toDouble(b);
  return identicalValues(a, b);
}

/** The parser of `op` (one implementation, `$mul` multiplying where `$inc` adds). */
export function arithmetic(op: '$inc' | '$mul'): ModifierParser {
  const multiply = op === '$mul';
  return (field, arg) => {
    if (numKind(arg) === null) {
      throw new CommandError(
        'TypeMismatch',
        `Cannot ${multiply ? 'multiply' : 'increment'} with non-numeric argument: {${formatElement(field, arg)}}`,
      );
    }
    return {
      op,
      allowCreation: true,
      updateExisting(current, mc) {
        if (numKind(current) === null) {
          throw new CommandError(
            'TypeMismatch',
            `Cannot apply ${op} to a value of non-numeric type. {${idText(mc.doc)}} has the field '${fieldName(mc.pathTaken)}' of non-numeric type ${bsonTypeOf(current)}`,
          );
        }
        const r = safeArithmetic(multiply, current, arg);
        if (r === INVALID) {
          throw new CommandError(
            'BadValue',
            `Failed to apply ${op} operations to current value (${debugString(current)}) for document {${idText(mc.doc)}}`,
          );
        }
        return sameNumber(r, current) ? NOOP : r;
      },
      createValue: () => (multiply ? safeArithmetic(true, arg, 0) : arg),
    };
  };
}
