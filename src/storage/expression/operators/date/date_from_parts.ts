/**
 * `$dateFromParts` (ExpressionDateFromParts): the instant whose wall clock in `timezone` shows
 * the parts, either calendar (`year`, `month`, `day`) or ISO 8601 (`isoWeekYear`, `isoWeek`,
 * `isoDayOfWeek`), with `hour`, `minute`, `second`, `millisecond`; every part an expression.
 * Parts out of their natural range carry (month 14 is February of the next year, hour -1 the day
 * before) as timelib does. Per document, in mongod's order: hour, minute, second, millisecond,
 * the zone, then the date parts; a null or missing one gives null, one that is not an integer
 * (of any numeric type, within Int64) 40515, month, day, hour, minute and the ISO week parts
 * outside [-32768, 32767] 31034, a year outside 1–9999 40523 (31095 for `isoWeekYear`).
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { docValueToString } from '../../../values/format.js';
import { exactInt64 } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import { type TimeZone, daysFromCivil, dayOfWeek, instantFromParts } from '../../../values/timezone.js';
import type { Evaluator, ExpressionOperator, Frame } from '../../types.js';
import { isNullish } from '../../value.js';
import { parseTimeZoneArgument } from './_internal/operands.js';

const FIELDS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond', 'isoWeekYear', 'isoWeek', 'isoDayOfWeek', 'timezone'] as const;
type Field = (typeof FIELDS)[number];

/** A part: its name, default, whether it is bounded to an int16, and its evaluator (absent: default). */
interface Part {
  readonly name: string;
  readonly fallback: number;
  readonly bounded: boolean;
  readonly evaluate: Evaluator | undefined;
}

const INT16_MIN = -32768;
const INT16_MAX = 32767;

/** `evaluateNumberWithDefault(AndBounds)`: the part's value, or null when nullish. */
function partValue(part: Part, frame: Frame): number | null {
  if (part.evaluate === undefined) return part.fallback;
  const v = part.evaluate(frame);
  if (isNullish(v)) return null;
  const n = exactInt64(v);
  if (n === undefined) {
    throw new CommandError(40515, `'${part.name}' must evaluate to an integer, found ${bsonTypeOf(v)} with value ${docValueToString(v)}`);
  }
  if (part.bounded && (n < INT16_MIN || n > INT16_MAX)) {
    throw new CommandError(
      31034,
      `'${part.name}' must evaluate to a value in the range [${INT16_MIN}, ${INT16_MAX}]; value ${n} is not in range`,
    );
  }
  return Number(n);
}

/** True when `arg` is a constant operand (not a field path, variable, operator or container). */
function isConstantOperand(arg: unknown): boolean {
  if (typeof arg === 'string') return !arg.startsWith('$');
  return typeof arg !== 'object' || arg === null || arg instanceof Date;
}

/** `timelib_date_from_isodate` as a day count: day `id` of week `iw` of ISO year `iy`. */
function isoDays(iy: number, iw: number, id: number): number {
  const dow = dayOfWeek(iy, 1, 1) - 1; // 0 = Sunday
  return daysFromCivil(iy, 1, 1) - (dow > 4 ? dow - 7 : dow) + (iw - 1) * 7 + id;
}

/** `{$dateFromParts: {year | isoWeekYear, ..., timezone?}}`. */
export const dateFromParts: ExpressionOperator = {
  name: '$dateFromParts',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(40519, '$dateFromParts only supports an object as its argument');
    const given = new Map<Field, unknown>();
    for (const key of Object.keys(arg)) {
      if (!(FIELDS as readonly string[]).includes(key)) throw new CommandError(40518, `Unrecognized argument to $dateFromParts: ${key}`);
      given.set(key as Field, arg[key]);
    }
    const has = (f: Field): boolean => given.has(f);
    if (!has('year') && !has('isoWeekYear')) {
      throw new CommandError(40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present");
    }
    if (has('year') && (has('isoWeekYear') || has('isoWeek') || has('isoDayOfWeek'))) {
      throw new CommandError(40489, '$dateFromParts does not allow mixing natural dates with ISO dates');
    }
    if (has('isoWeekYear') && (has('year') || has('month') || has('day'))) {
      throw new CommandError(40525, '$dateFromParts does not allow mixing ISO dates with natural dates');
    }
    const evaluators = new Map<Field, Evaluator>();
    for (const f of FIELDS) {
      if (f !== 'timezone' && given.has(f)) evaluators.set(f, scope.parse(given.get(f)));
    }
    const part = (name: Field, fallback: number, bounded: boolean): Part => ({ name, fallback, bounded, evaluate: evaluators.get(name) });
    const hour = part('hour', 0, true);
    const minute = part('minute', 0, true);
    const second = part('second', 0, false);
    const millisecond = part('millisecond', 0, false);
    const calendar = has('year');
    const first = calendar ? part('year', 1970, false) : part('isoWeekYear', 1970, false);
    const middle = calendar ? part('month', 1, true) : part('isoWeek', 1, true);
    const last = calendar ? part('day', 1, true) : part('isoDayOfWeek', 1, true);
    const timezone = given.get('timezone');
    if (timezone === null && ![...given.values()].every(isConstantOperand)) return () => null;
    const zoneOf = parseTimeZoneArgument(timezone, scope);
    return (frame) => {
      const h = partValue(hour, frame);
      if (h === null) return null;
      const mi = partValue(minute, frame);
      if (mi === null) return null;
      const s = partValue(second, frame);
      if (s === null) return null;
      const ms = partValue(millisecond, frame);
      if (ms === null) return null;
      const zone: TimeZone | null = zoneOf(frame);
      if (zone === null) return null;
      const y = partValue(first, frame);
      if (y === null) return null;
      const m = partValue(middle, frame);
      if (m === null) return null;
      const d = partValue(last, frame);
      if (d === null) return null;
      if (y < 1 || y > 9999) {
        const code = calendar ? 40523 : 31095;
        throw new CommandError(code, `'${first.name}' must evaluate to an integer in the range 1 to 9999, found ${y}`);
      }
      const parts = calendar
        ? { year: y, month: m, day: d, hour: h, minute: mi, second: s, millisecond: ms }
        : { year: 1970, month: 1, day: isoDays(y, m, d) + 1, hour: h, minute: mi, second: s, millisecond: ms };
      return new Date(instantFromParts(parts, zone));
    };
  },
};
