/**
 * `$dateTrunc` (ExpressionDateTrunc): the start of the bin of `binSize` (default 1) `unit`s that
 * `date` falls in, bins counted from 2000-01-01 on `timezone`'s clock (weeks from the first
 * `startOfWeek` on or after it). Null when an argument is null or missing; 5166307 for a date
 * that is no date; 5439017/5439018 for a binSize that is not a positive integer.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import {
  DEFAULT_START_OF_WEEK,
  type DayOfWeek,
  type TimeUnit,
  binSizeOf,
  constantValue,
  dayOfWeekOf,
  foldWhenConstant,
  namedArguments,
  timeUnitOf,
  truncateDate,
} from './_internal/arithmetic.js';
import { coerceToDateMs, isCoercibleToDate } from './_internal/operands.js';
import { parseTimeZoneWithContext } from './_internal/zone_context.js';

const NAMES = ['date', 'unit', 'binSize', 'timezone', 'startOfWeek'] as const;

/** `{$dateTrunc: {date, unit, binSize?, timezone?, startOfWeek?}}`. */
export const dateTrunc: ExpressionOperator = {
  name: '$dateTrunc',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(5439007, '$dateTrunc only supports an object as its argument');
    const args = namedArguments(
      arg,
      NAMES,
      (name) =>
        new CommandError(
          5439008,
          `Unrecognized argument to $dateTrunc: ${name}. Expected arguments are date, unit, and optionally, binSize, timezone, startOfWeek`,
        ),
    );
    if (args.date === undefined) throw new CommandError(5439009, "Missing 'date' parameter to $dateTrunc");
    if (args.unit === undefined) throw new CommandError(5439010, "Missing 'unit' parameter to $dateTrunc");
    const dateE = scope.parse(args.date.raw);
    const unitE = scope.parse(args.unit.raw);
    const binSizeE: Evaluator | undefined = args.binSize === undefined ? undefined : scope.parse(args.binSize.raw);
    const zoneOf = parseTimeZoneWithContext('$dateTrunc', args.timezone?.raw, scope);
    const sowE: Evaluator | undefined = args.startOfWeek === undefined ? undefined : scope.parse(args.startOfWeek.raw);
    const allConstant = Object.values(args).every((a) => a.constant);

    // Constant options are read once, here, as mongod reads them when the expression is built.
    let constantBinSize: bigint | null = null;
    if (binSizeE !== undefined && args.binSize?.constant === true) {
      const b = constantValue(binSizeE);
      if (!isNullish(b)) constantBinSize = binSizeOf(b);
    }
    let constantUnit: TimeUnit | null = null;
    if (args.unit.constant) {
      const u = constantValue(unitE);
      if (!isNullish(u)) constantUnit = timeUnitOf(u, '$dateTrunc');
    }
    let constantSow: DayOfWeek | null = null;
    if (constantUnit === 'week' && sowE !== undefined && args.startOfWeek?.constant === true) {
      const s = constantValue(sowE);
      if (!isNullish(s)) constantSow = dayOfWeekOf(s, '$dateTrunc', 'startOfWeek');
    }
    // Evaluated per document, a null or missing startOfWeek makes the result null for any unit.
    const sowNullMakesNull = !allConstant;

    const evaluate: Evaluator = (frame) => {
      const date = dateE(frame);
      if (isNullish(date)) return null;
      let binSize = 1n;
      if (constantBinSize !== null) binSize = constantBinSize;
      else if (binSizeE !== undefined) {
        const b = binSizeE(frame);
        if (isNullish(b)) return null;
        binSize = binSizeOf(b);
      }
      let unit: TimeUnit;
      if (constantUnit !== null) unit = constantUnit;
      else {
        const u = unitE(frame);
        if (isNullish(u)) return null;
        unit = timeUnitOf(u, '$dateTrunc');
      }
      let startOfWeek: DayOfWeek = DEFAULT_START_OF_WEEK;
      if (constantSow !== null) startOfWeek = constantSow;
      else if (sowE !== undefined && (unit === 'week' || sowNullMakesNull)) {
        const s = sowE(frame);
        if (isNullish(s)) return null;
        if (unit === 'week') startOfWeek = dayOfWeekOf(s, '$dateTrunc', 'startOfWeek');
      }
      const zone = zoneOf(frame);
      if (zone === null) return null;
      if (!isCoercibleToDate(date)) {
        throw new CommandError(5166307, `$dateTrunc requires 'date' to be a date, but got ${bsonTypeOf(date)}`);
      }
      return new Date(truncateDate(coerceToDateMs(date), unit, binSize, zone, startOfWeek));
    };
    return foldWhenConstant(allConstant, evaluate);
  },
};
