/**
 * What the array operators share (mongo/src/mongo/db/exec/expression/evaluate_array.cpp and
 * expression.cpp): the element read of `$arrayElemAt`, `$first` and `$last`, mongod's
 * `Value::integral()` (a number exactly an Int32), the arity check of operators taking a range
 * of arguments (28667), and the object-argument parse of `$filter`, `$map`, `$reduce`, `$zip`,
 * `$sortArray`.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { formatG } from '../../../values/format.js';
import { exactInt32, numKind, toDouble } from '../../../values/numeric.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ParseScope } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/**
 * `arrayElemAt` of evaluate_array.cpp, for `$arrayElemAt` (two arguments), `$first` and `$last`
 * (one: their messages say "argument"). MISSING when the index is out of range.
 */
export function elementAt(opName: string, unary: boolean, array: unknown, index: unknown): unknown {
  if (isNullish(array) || isNullish(index)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(28689, `${opName}'s ${unary ? 'argument' : 'first argument'} must be an array, but is ${typeName(array)}`);
  }
  if (numKind(index) === null) {
    throw new CommandError(28690, `${opName}'s second argument must be a numeric value, but is ${typeName(index)}`);
  }
  const i = exactInt32(index);
  if (i === undefined) {
    throw new CommandError(28691, `${opName}'s second argument must be representable as a 32-bit integer: ${formatG(toDouble(index), 6)}`);
  }
  const at = i < 0 ? array.length + i : i;
  if (at < 0 || at >= array.length) return MISSING;
  return array[at];
}

/** `Value::integral()`: the Int32 a number exactly is (any numeric type), else undefined. */
export function integral(v: unknown): number | undefined {
  return numKind(v) === null ? undefined : exactInt32(v);
}

/** `Value::coerceToDouble()` as a message prints it (`ostream`, 6 significant digits). */
export function doubleText(v: unknown): string {
  return formatG(toDouble(v), 6);
}

/** The arguments of an operator taking `min` to `max` of them (`ExpressionRangedArity`, 28667). */
export function parseRangedArguments(scope: ParseScope, name: string, arg: unknown, min: number, max: number): Evaluator[] {
  const args = scope.parseArguments(arg);
  if (args.length < min || args.length > max) {
    throw new CommandError(28667, `Expression ${name} takes at least ${min} arguments, and at most ${max}, but ${args.length} were passed in.`);
  }
  return args;
}

/** The fields of an object argument, in order, each checked against `known` (`unknown` otherwise). */
export function namedArguments(arg: Document, known: readonly string[], unknown: (field: string) => CommandError): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const key of Object.keys(arg)) {
    if (!known.includes(key)) throw unknown(key);
    out.set(key, arg[key]);
  }
  return out;
}

/** `BSONElement::str()`: the string of a string element, "" for anything else. */
export function elementString(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
