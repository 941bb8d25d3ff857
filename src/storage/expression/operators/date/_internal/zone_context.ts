/**
 * The `timezone` argument of `$dateDiff` and `$dateTrunc`, whose failures mongod reports with a
 * context: "<op> parameter 'timezone' value parsing failed :: caused by :: <reason>".
 */
import { CommandError } from '../../../../../errors/command_error.js';
import type { TimeZone } from '../../../../values/timezone.js';
import type { Frame, ParseScope } from '../../../types.js';
import { withContext } from '../../../field_path.js';
import { isConstantArgument } from './arithmetic.js';
import { parseTimeZoneArgument } from './operands.js';

/** `parseTimeZoneArgument` with the operator's context on a bad zone (constant or per document). */
export function parseTimeZoneWithContext(opName: string, arg: unknown, scope: ParseScope): (frame: Frame) => TimeZone | null {
  const context = `${opName} parameter 'timezone' value parsing failed`;
  // A constant zone is resolved now: its failure carries the context. Anything else is parsed
  // as an expression, whose own parse errors carry none.
  const zoneOf = isConstantArgument(arg)
    ? withContext(context, () => parseTimeZoneArgument(arg, scope))
    : parseTimeZoneArgument(arg, scope);
  return (frame) => {
    try {
      return zoneOf(frame);
    } catch (err) {
      if (err instanceof CommandError) throw new CommandError(err.code, `${context} :: caused by :: ${err.message}`, err.extra);
      throw err;
    }
  };
}
