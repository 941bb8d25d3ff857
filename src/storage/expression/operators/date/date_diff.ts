/**
 * `$dateDiff` (ExpressionDateDiff): the number of `unit` boundaries crossed from `startDate` to
 * `endDate` on `timezone`'s clock (weeks starting on `startOfWeek`, Sunday by default), an Int64.
 * Null when an argument is null or missing; 5166307 for a date that is no date.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { longOf } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import {
  DEFAULT_START_OF_WEEK,
  type DayOfWeek,
  type TimeUnit,
  constantValue,
  dateDiff as dateDiffOf,
  dayOfWeekOf,
  foldWhenConstant,
  namedArguments,
  timeUnitOf,
} from './_internal/arithmetic.js';
import { coerceToDateMs, isCoercibleToDate } from './_internal/operands.js';
import { parseTimeZoneWithContext } from './_internal/zone_context.js';

const NAMES = ['startDate', 'endDate', 'unit', 'timezone', 'startOfWeek'] as const;

/** `convertDate`: a date-like value's milliseconds, or 5166307. */
function dateOf(v: unknown, parameter: string): number {
  if (!isCoercibleToDate(v)) {
    throw new CommandError(5166307, `$dateDiff requires '${parameter}' to be a date, but got ${bsonTypeOf(v)}`);
  }
  return coerceToDateMs(v);
}

/** `{$dateDiff: {startDate, endDate, unit, timezone?, startOfWeek?}}`. */
export const dateDiff: ExpressionOperator = {
  name: '$dateDiff',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(5166301, '$dateDiff only supports an object as its argument');
    const args = namedArguments(arg, NAMES, (name) => new CommandError(5166302, `Unrecognized argument to $dateDiff: ${name}`));
    if (args.startDate === undefined) throw new CommandError(5166303, "Missing 'startDate' parameter to $dateDiff");
    if (args.endDate === undefined) throw new CommandError(5166304, "Missing 'endDate' parameter to $dateDiff");
    if (args.unit === undefined) throw new CommandError(5166305, "Missing 'unit' parameter to $dateDiff");
    const startE = scope.parse(args.startDate.raw);
    const endE = scope.parse(args.endDate.raw);
    const unitE = scope.parse(args.unit.raw);
    const zoneOf = parseTimeZoneWithContext('$dateDiff', args.timezone?.raw, scope);
    const sowE: Evaluator | undefined = args.startOfWeek === undefined ? undefined : scope.parse(args.startOfWeek.raw);
    const allConstant = Object.values(args).every((a) => a.constant);

    // Constant options are read once, here, as mongod reads them when the expression is built.
    let constantUnit: TimeUnit | null = null;
    if (args.unit.constant) {
      const u = constantValue(unitE);
      if (!isNullish(u)) constantUnit = timeUnitOf(u, '$dateDiff');
    }
    let constantSow: DayOfWeek | null = null;
    if (constantUnit === 'week' && sowE !== undefined && args.startOfWeek?.constant === true) {
      const s = constantValue(sowE);
      if (!isNullish(s)) constantSow = dayOfWeekOf(s, '$dateDiff', 'startOfWeek');
    }
    // Evaluated per document, a null or missing startOfWeek makes the result null for any unit.
    const sowNullMakesNull = !allConstant;

    const evaluate: Evaluator = (frame) => {
      const start = startE(frame);
      if (isNullish(start)) return null;
      const end = endE(frame);
      if (isNullish(end)) return null;
      let unit: TimeUnit;
      if (constantUnit !== null) unit = constantUnit;
      else {
        const u = unitE(frame);
        if (isNullish(u)) return null;
        unit = timeUnitOf(u, '$dateDiff');
      }
      let startOfWeek: DayOfWeek = DEFAULT_START_OF_WEEK;
      if (constantSow !== null) startOfWeek = constantSow;
      else if (sowE !== undefined && (unit === 'week' || sowNullMakesNull)) {
        const s = sowE(frame);
        if (isNullish(s)) return null;
        if (unit === 'week') startOfWeek = dayOfWeekOf(s, '$dateDiff', 'startOfWeek');
      }
      const zone = zoneOf(frame);
      if (zone === null) return null;
      return longOf(dateDiffOf(dateOf(start, 'startDate'), dateOf(end, 'endDate'), unit, zone, startOfWeek));
    };
    return foldWhenConstant(allConstant, evaluate);
  },
};
