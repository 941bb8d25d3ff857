/**
 * What `$dateAdd` and `$dateSubtract` share (mongod's `ExpressionDateArithmetics`): the argument
 * object `{startDate, unit, amount, timezone}` and its evaluation (`extractDateArithmetics`):
 * null when startDate, unit, amount or timezone is null or missing; then 5166403 for a startDate
 * that is no date, 5166405 for an amount that is not an integer, and `dateAdd`'s own errors.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { isDocument } from '../../../../values/paths.js';
import type { TimeZone } from '../../../../values/timezone.js';
import type { Evaluator, Frame, ParseScope } from '../../../types.js';
import { isNullish } from '../../../value.js';
import { type TimeUnit, constantValue, dateAdd, foldWhenConstant, integral64, isConstantArgument, timeUnitOf } from './arithmetic.js';
import { coerceToDateMs, isCoercibleToDate, parseTimeZoneArgument } from './operands.js';

const NAMES = ['startDate', 'unit', 'amount', 'timezone'] as const;
const INT64_MIN = -(2n ** 63n);

/** Parses `{$dateAdd | $dateSubtract: {...}}`; `subtract` negates the amount. */
export function parseDateArithmetic(opName: '$dateAdd' | '$dateSubtract', arg: unknown, scope: ParseScope): Evaluator {
  if (!isDocument(arg)) throw new CommandError(5166400, `${opName} expects an object as its argument`);
  // Each argument is parsed where it stands, as mongod's loop does.
  const parsed: Partial<Record<(typeof NAMES)[number], Evaluator>> = {};
  let timezone: ((frame: Frame) => TimeZone | null) | undefined;
  let allConstant = true;
  for (const key of Object.keys(arg)) {
    if (!(NAMES as readonly string[]).includes(key)) {
      throw new CommandError(
        5166401,
        `Unrecognized argument to ${opName}: ${key}. Expected arguments are startDate, unit, amount, and optionally timezone.`,
      );
    }
    if (!isConstantArgument(arg[key])) allConstant = false;
    if (key === 'timezone') timezone = parseTimeZoneArgument(arg[key], scope);
    else parsed[key as 'startDate' | 'unit' | 'amount'] = scope.parse(arg[key]);
  }
  const { startDate: startE, unit: unitE, amount: amountE } = parsed;
  if (startE === undefined || unitE === undefined || amountE === undefined) {
    throw new CommandError(5166402, `${opName} requires startDate, unit, and amount to be present`);
  }
  const zoneOf = timezone ?? parseTimeZoneArgument(undefined, scope);

  // A constant unit is read once, here (mongod's parsed unit): a bad one fails before any document.
  let constantUnit: TimeUnit | null = null;
  if (isConstantArgument(arg['unit'])) {
    const u = constantValue(unitE);
    if (!isNullish(u)) constantUnit = timeUnitOf(u, opName);
  }
  const subtract = opName === '$dateSubtract';

  const evaluate: Evaluator = (frame) => {
    const start = startE(frame);
    if (isNullish(start)) return null;
    let u: TimeUnit;
    if (constantUnit !== null) u = constantUnit;
    else {
      const v = unitE(frame);
      if (isNullish(v)) return null;
      u = timeUnitOf(v, opName);
    }
    const a = amountE(frame);
    if (isNullish(a)) return null;
    const zone = zoneOf(frame);
    if (zone === null) return null;
    if (!isCoercibleToDate(start)) throw new CommandError(5166403, `${opName} requires startDate to be convertible to a date`);
    let n = integral64(a);
    if (n === undefined) throw new CommandError(5166405, `${opName} expects integer amount of time units`);
    if (subtract) {
      if (n === INT64_MIN) throw new CommandError(6045000, `invalid $dateSubtract 'amount' parameter value: ${n}`);
      n = -n;
    }
    return new Date(dateAdd(coerceToDateMs(start), u, n, zone));
  };
  return foldWhenConstant(allConstant, evaluate);
}

