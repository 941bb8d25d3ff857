/**
 * What `$indexOfBytes` and `$indexOfCP` share: their 2 to 4 arguments (28667), and the check of
 * the optional start and end indexes (`uassertIfNotIntegralAndNonNegative`: 40096, 40097).
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { docValueToString } from '../../../../values/format.js';
import type { Evaluator, ParseScope } from '../../../types.js';
import { typeName } from '../../../value.js';
import { coerceToInt, isIntegral } from './numbers.js';

/** The arguments of a ranged operator (`ExpressionRangedArity`): between `min` and `max` of them. */
export function parseRangedArguments(name: string, arg: unknown, scope: ParseScope, min: number, max: number): Evaluator[] {
  const args = scope.parseArguments(arg);
  if (args.length < min || args.length > max) {
    throw new CommandError(28667, `Expression ${name} takes at least ${min} arguments, and at most ${max}, but ${args.length} were passed in.`);
  }
  return args;
}

/** An index argument: exactly an Int32 (40096) and not negative (40097); its value. */
export function indexArgument(v: unknown, name: string, argument: 'starting index' | 'ending index'): number {
  if (!isIntegral(v)) {
    throw new CommandError(
      40096,
      `${name}requires an integral ${argument}, found a value of type: ${typeName(v)}, with value: ${docValueToString(v)}`,
    );
  }
  // `| 0`: a -0.0 start is the Int32 0.
  const n = coerceToInt(v) | 0;
  if (n < 0) throw new CommandError(40097, `${name} requires a nonnegative ${argument}, found: ${docValueToString(v)}`);
  return n;
}
