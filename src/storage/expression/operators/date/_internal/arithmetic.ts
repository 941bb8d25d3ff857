/**
 * Date arithmetic as mongod does it (mongo/src/mongo/db/query/datetime/date_time_support.cpp:
 * `dateAdd`, `dateDiff`, `truncateDate`), shared by `$dateAdd`, `$dateSubtract`, `$dateDiff` and
 * `$dateTrunc`: the time units and days of the week they name, calendar units counted on the
 * zone's wall clock (a month added to Jan 31 is the last day of February), hours and smaller as
 * elapsed milliseconds, differences as boundaries crossed, and bins counted from mongod's
 * reference point (2000-01-01 in the zone). The argument object these operators take is read
 * here too (`namedArguments`), and constant arguments are told apart so that they are read, or
 * the whole expression folded, at parse time as mongod does.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { docValueToString } from '../../../../values/format.js';
import { constantOperand, isConstant } from '../../../../values/constant_operand.js';
import { TWO_POW_63, exactInt64 } from '../../../../values/numeric.js';
import { isDocument } from '../../../../values/paths.js';
import { MS_PER_DAY, type TimeZone, addMonthsClamped, civilFromDays, daysFromCivil } from '../../../../values/timezone.js';
import type { Evaluator } from '../../../types.js';
import { CONSTANT_FRAME } from '../../../value.js';

/** mongod's `TimeUnit`. */
export type TimeUnit = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';

const TIME_UNITS: ReadonlySet<string> = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond']);

/** A day of the week as mongod's `DayOfWeek`: 1 (Monday) to 7 (Sunday). */
export type DayOfWeek = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** `kStartOfWeekDefault`: Sunday. */
export const DEFAULT_START_OF_WEEK: DayOfWeek = 7;

const DAYS_OF_WEEK: ReadonlyMap<string, DayOfWeek> = new Map([
  ['monday', 1],
  ['mon', 1],
  ['tuesday', 2],
  ['tue', 2],
  ['wednesday', 3],
  ['wed', 3],
  ['thursday', 4],
  ['thu', 4],
  ['friday', 5],
  ['fri', 5],
  ['saturday', 6],
  ['sat', 6],
  ['sunday', 7],
  ['sun', 7],
]);

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;
/** 2000-01-01T00:00:00Z, mongod's `kReferencePointInUTCMillis`. */
const REFERENCE_POINT_UTC_MS = 946_684_800_000;
/** Days from 1970-01-01 to 2000-01-01. */
const REFERENCE_POINT_DAYS = 10_957;

const UNIT_MS: Readonly<Record<'hour' | 'minute' | 'second' | 'millisecond', number>> = {
  hour: MS_PER_HOUR,
  minute: MS_PER_MINUTE,
  second: MS_PER_SECOND,
  millisecond: 1,
};

/**
 * mongod's `parseTimeUnit(Value, expressionName)`: 5439013 for a non-string, FailedToParse (9)
 * "unknown time unit value" with the operator's context for an unknown name.
 */
export function timeUnitOf(v: unknown, opName: string): TimeUnit {
  if (typeof v !== 'string') {
    throw new CommandError(5439013, `${opName} requires 'unit' to be a string, but got ${bsonTypeOf(v)}`);
  }
  if (!TIME_UNITS.has(v)) {
    throw new CommandError(
      'FailedToParse',
      `${opName} parameter 'unit' value parsing failed :: caused by :: unknown time unit value: ${v}`,
    );
  }
  return v as TimeUnit;
}

/** mongod's `parseDayOfWeek(Value, ...)`: 5439015 for a non-string, 5439016 for an unknown name (case-insensitive). */
export function dayOfWeekOf(v: unknown, opName: string, parameter: string): DayOfWeek {
  if (typeof v !== 'string') {
    throw new CommandError(5439015, `${opName} requires '${parameter}' to be a string, but got ${bsonTypeOf(v)}`);
  }
  const day = DAYS_OF_WEEK.get(v.toLowerCase());
  if (day === undefined) {
    throw new CommandError(5439016, `${opName} parameter '${parameter}' value cannot be recognized as a day of a week: ${v}`);
  }
  return day;
}

/** `Value::integral64Bit` then `coerceToLong`: the integer a number holds exactly within Int64, else undefined. */
export function integral64(v: unknown): bigint | undefined {
  return exactInt64(v);
}

/** `$dateTrunc`'s `binSize` (`convertDateTruncBinSizeValue`): 5439017 unless an Int64-exact integer, 5439018 unless positive. */
export function binSizeOf(v: unknown): bigint {
  const n = exactInt64(v);
  if (n === undefined) {
    throw new CommandError(
      5439017,
      `$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '${docValueToString(v)}' of type ${bsonTypeOf(v)}`,
    );
  }
  if (n <= 0n) throw new CommandError(5439018, `$dateTrunc requires 'binSize' to be greater than 0, but got value ${n}`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// The wall clock of a zone.

/** A date on a zone's wall clock, as timelib splits it (whole seconds; the offset in seconds east). */
interface LocalTime {
  /** Days since 1970-01-01 of the local date. */
  days: number;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Milliseconds into the local day (milliseconds included). */
  timeOfDayMs: number;
  /** The zone's offset from UTC at the instant, in milliseconds (timelib's `z`, in ms). */
  offsetMs: number;
}

function localTimeOf(ms: number, zone: TimeZone): LocalTime {
  const offsetMs = zone.offsetMs(ms);
  const local = ms + offsetMs;
  const days = Math.floor(local / MS_PER_DAY);
  const timeOfDayMs = local - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  return {
    days,
    year,
    month,
    day,
    hour: Math.floor(timeOfDayMs / MS_PER_HOUR),
    minute: Math.floor(timeOfDayMs / MS_PER_MINUTE) % 60,
    second: Math.floor(timeOfDayMs / MS_PER_SECOND) % 60,
    timeOfDayMs,
    offsetMs,
  };
}

/** The window around a wall time in which a zone's transitions are looked for. */
const TRANSITION_WINDOW_MS = 3 * MS_PER_HOUR;

/**
 * The instant whose wall clock in `zone` reads `wallMs` (the local time read as UTC), as timelib
 * converts a local time back: in a gap (clocks put forward) the offset in force before it, so the
 * time moves forward by the gap; in an overlap (clocks put back) the daylight-saving reading when
 * the date it came from was in daylight-saving time (`wasDst`), the standard one otherwise.
 */
function instantOfWallTime(wallMs: number, zone: TimeZone, originalOffsetMs: number): number {
  if (zone.fixed) return wallMs - zone.offsetMs(wallMs);
  const guess = zone.offsetMs(wallMs - zone.offsetMs(wallMs));
  const earlier = zone.offsetMs(wallMs - guess - TRANSITION_WINDOW_MS);
  const later = zone.offsetMs(wallMs - guess + TRANSITION_WINDOW_MS);
  const valid: number[] = [];
  for (const offset of [guess, earlier, later]) {
    if (!valid.includes(offset) && zone.offsetMs(wallMs - offset) === offset) valid.push(offset);
  }
  if (valid.length === 1) return wallMs - valid[0]!;
  if (valid.length === 0) return wallMs - Math.min(earlier, later, guess);
  const dst = Math.max(...valid);
  const standard = Math.min(...valid);
  return wallMs - (originalOffsetMs >= dst ? dst : standard);
}

// ---------------------------------------------------------------------------------------------
// dateAdd.

/** `isDateAddAmountValid`'s bounds, per unit (exclusive, either sign). */
const MAX_DAYS = 213_503_982_335n; // ULLONG_MAX / kMillisecondsPerDay + 1
const MAX_YEARS = MAX_DAYS / 365n + 1n;
const MAX_AMOUNT: Readonly<Record<Exclude<TimeUnit, 'millisecond'>, bigint>> = {
  year: MAX_YEARS,
  quarter: MAX_YEARS * 4n,
  month: MAX_YEARS * 12n,
  week: MAX_DAYS / 7n,
  day: MAX_DAYS,
  hour: MAX_DAYS * 24n,
  minute: MAX_DAYS * 24n * 60n,
  second: MAX_DAYS * 24n * 60n * 60n,
};

/** A millisecond count as a BSON date, or 5166406 "dateAdd overflowed" when it does not fit. */
function checkedDateAddResult(ms: number): number {
  if (!Number.isFinite(ms) || ms >= TWO_POW_63 || ms < -TWO_POW_63) throw new CommandError(5166406, 'dateAdd overflowed');
  return ms;
}

/**
 * mongod's `dateAdd(date, unit, amount, timezone)`: milliseconds since the epoch of `dateMs`
 * plus `amount` units. Hours and smaller are elapsed time; days and larger move the zone's wall
 * clock (its time of day kept), months clamped to the last day of the target month.
 */
export function dateAdd(dateMs: number, unit: TimeUnit, amount: bigint, zone: TimeZone): number {
  if (unit === 'millisecond') return checkedDateAddResult(dateMs + Number(amount));
  const max = MAX_AMOUNT[unit];
  if (!(-max < amount && amount < max)) {
    throw new CommandError(5976500, `invalid dateAdd 'amount' parameter value: ${amount} ${unit}`);
  }
  const n = Number(amount);
  if (unit === 'hour' || unit === 'minute' || unit === 'second') {
    return checkedDateAddResult(dateMs + n * UNIT_MS[unit]);
  }
  const local = localTimeOf(dateMs, zone);
  let days: number;
  if (unit === 'day') days = local.days + n;
  else if (unit === 'week') days = local.days + n * 7;
  else {
    const months = unit === 'year' ? n * 12 : unit === 'quarter' ? n * 3 : n;
    days = addMonthsClamped(local.year, local.month, local.day, months);
  }
  const wall = days * MS_PER_DAY + local.timeOfDayMs;
  if (!Number.isFinite(wall) || Math.abs(wall) >= TWO_POW_63) throw new CommandError(5166406, 'dateAdd overflowed');
  return checkedDateAddResult(instantOfWallTime(wall, zone, local.offsetMs));
}

// ---------------------------------------------------------------------------------------------
// dateDiff.

/** 0 (the first day) to 6: the day of the week of a local date in a week starting on `startOfWeek`. */
function dayInWeek(days: number, startOfWeek: DayOfWeek): number {
  const isoDayOfWeek = ((((days + 3) % 7) + 7) % 7) + 1;
  return (isoDayOfWeek - startOfWeek + 7) % 7;
}

function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3);
}

/** Week boundaries crossed between two local dates (mongod's `dateDiffWeek`). */
function weeksBetween(startDays: number, endDays: number, startOfWeek: DayOfWeek): number {
  return (endDays - startDays + dayInWeek(startDays, startOfWeek) - dayInWeek(endDays, startOfWeek)) / 7;
}

/**
 * mongod's `dateDiff`: the number of `unit` boundaries crossed from `startMs` to `endMs` on the
 * zone's wall clock (hours, minutes and seconds corrected by the change of the zone's offset
 * between the two); milliseconds are the plain difference. An Int64.
 */
export function dateDiff(startMs: number, endMs: number, unit: TimeUnit, zone: TimeZone, startOfWeek: DayOfWeek): bigint {
  if (unit === 'millisecond') {
    const diff = BigInt(endMs) - BigInt(startMs);
    if (diff >= 2n ** 63n || diff < -(2n ** 63n)) throw new CommandError(5166308, 'dateDiff overflowed');
    return diff;
  }
  const s = localTimeOf(startMs, zone);
  const e = localTimeOf(endMs, zone);
  switch (unit) {
    case 'year':
      return BigInt(e.year - s.year);
    case 'quarter':
      return BigInt(quarterOf(e.month) - quarterOf(s.month) + (e.year - s.year) * 4);
    case 'month':
      return BigInt(e.month - s.month + (e.year - s.year) * 12);
    case 'week':
      return BigInt(weeksBetween(s.days, e.days, startOfWeek));
    case 'day':
      return BigInt(e.days - s.days);
    default:
      break;
  }
  // Seconds east of UTC at each end (timelib's `z`), and the wall-clock differences.
  const offsetChange = (s.offsetMs - e.offsetMs) / 1000;
  const hours = BigInt(e.hour - s.hour) + BigInt(e.days - s.days) * 24n;
  if (unit === 'hour') return hours + BigInt(Math.trunc(offsetChange / 3600));
  const minutes = BigInt(e.minute - s.minute) + hours * 60n;
  if (unit === 'minute') return minutes + BigInt(Math.trunc(offsetChange / 60));
  return BigInt(e.second - s.second) + minutes * 60n + BigInt(Math.trunc(offsetChange));
}

// ---------------------------------------------------------------------------------------------
// dateTrunc.

/** `distanceToBinLowerBound`: the non-negative remainder of `value` by `binSize`. */
function distanceToBinLowerBound(value: bigint, binSize: bigint): bigint {
  const r = value % binSize;
  return r < 0n ? r + binSize : r;
}

const INT64_MAX = 2n ** 63n - 1n;

/**
 * mongod's `truncateDate`: the lower bound of the bin of `binSize` units that `dateMs` falls in,
 * bins counted from 2000-01-01T00:00 on the zone's clock (weeks from the first `startOfWeek` on
 * or after it). Hours and smaller are bins of elapsed time; days and larger of the wall clock.
 */
export function truncateDate(dateMs: number, unit: TimeUnit, binSize: bigint, zone: TimeZone, startOfWeek: DayOfWeek): number {
  const referenceMs = REFERENCE_POINT_UTC_MS - zone.offsetMs(REFERENCE_POINT_UTC_MS);
  if (unit === 'millisecond' || unit === 'second' || unit === 'minute' || unit === 'hour') {
    const binMs = binSize * BigInt(UNIT_MS[unit]);
    if (binMs > INT64_MAX) throw new CommandError(5439002, 'dateTrunc overflowed');
    const shifted = BigInt(dateMs) - BigInt(referenceMs);
    return Number(BigInt(dateMs) - distanceToBinLowerBound(shifted, binMs));
  }
  if (binSize > 100_000_000_000n) throw new CommandError(5439006, 'dateTrunc unsupported binSize value');
  const local = localTimeOf(dateMs, zone);
  let referenceDays = REFERENCE_POINT_DAYS;
  let reference = referenceMs;
  let distance: number;
  switch (unit) {
    case 'day':
      distance = local.days - referenceDays;
      break;
    case 'week': {
      // 2000-01-01 was a Saturday (6); move to the first start of a week on or after it.
      const shift = (7 - ((6 - startOfWeek + 7) % 7)) % 7;
      referenceDays += shift;
      reference += shift * MS_PER_DAY;
      distance = weeksBetween(referenceDays, local.days, startOfWeek);
      break;
    }
    case 'month':
      distance = local.month - 1 + (local.year - 2000) * 12;
      break;
    case 'quarter':
      distance = quarterOf(local.month) + (local.year - 2000) * 4;
      break;
    default:
      distance = local.year - 2000;
      break;
  }
  const d = BigInt(distance);
  return dateAdd(reference, unit, d - distanceToBinLowerBound(d, binSize), zone);
}

// ---------------------------------------------------------------------------------------------
// The argument object.

/**
 * True when an argument is a constant mongod folds at parse time: a literal (not a `$` string),
 * `$literal`/`$const`, or an array or object literal of such (`values/constant_operand.ts`).
 */
export function isConstantArgument(arg: unknown): boolean {
  return isConstant(constantOperand(arg));
}

/** The value of a constant argument's evaluator. */
export function constantValue(evaluate: Evaluator): unknown {
  return evaluate(CONSTANT_FRAME);
}

/** One argument of the object form: as written, and whether it is a constant. */
export interface NamedArgument {
  readonly raw: unknown;
  readonly constant: boolean;
}

/**
 * The named arguments of `{<op>: {name: <expr>, ...}}`, checked against `names` (an unknown one
 * is `unknown(name)`) but not parsed: the operator parses them in mongod's order.
 */
export function namedArguments<N extends string>(
  arg: Record<string, unknown>,
  names: readonly N[],
  unknown: (name: string) => CommandError,
): Partial<Record<N, NamedArgument>> {
  const out: Partial<Record<N, NamedArgument>> = {};
  for (const key of Object.keys(arg)) {
    if (!(names as readonly string[]).includes(key)) throw unknown(key);
    out[key as N] = { raw: arg[key], constant: isConstantArgument(arg[key]) };
  }
  return out;
}


/**
 * mongod's constant folding (`optimize`): an expression whose arguments are all constants is
 * evaluated once, at parse time, so its errors come before any document is read. A Date result
 * is handed out as a fresh copy each time.
 */
export function foldWhenConstant(allConstant: boolean, evaluate: Evaluator): Evaluator {
  if (!allConstant) return evaluate;
  const value = evaluate(CONSTANT_FRAME);
  if (value instanceof Date) {
    const ms = value.getTime();
    return () => new Date(ms);
  }
  return () => value;
}
