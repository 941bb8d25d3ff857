/**
 * What the date-part operators share (mongod's `DateExpressionAcceptingTimeZone` in
 * expression.cpp, `TimeZone` in date_time_support.{h,cpp}): the argument shapes of `$year` and
 * its kin (`<date>`, `[<date>]`, `{date, timezone}`), their evaluation (date first, then the
 * zone), the calendar functions they return, and `$dateToString`'s formats (validation and
 * output), which `$dateFromString` validates against its own set of specifiers.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { Long } from '../../../../../bson/library.js';
import { formatElement } from '../../../../values/format.js';
import { isDocument } from '../../../../values/paths.js';
import { type DateParts, type TimeZone, dateParts, dayOfWeek, dayOfYear, isoWeekDate } from '../../../../values/timezone.js';
import type { Evaluator, ExpressionOperator, Frame, ParseScope } from '../../../types.js';
import { isNullish } from '../../../value.js';
import { coerceToDateMs, parseTimeZoneArgument } from './operands.js';

/** The date and zone of a date-part operator. */
export interface DateArgument {
  readonly date: Evaluator;
  readonly zone: (frame: Frame) => TimeZone | null;
}

/**
 * `parseDateExpressionAcceptingTimeZone`: an operator object (`{$add: ...}`) is the date; any
 * other object holds `date` and `timezone` (40535 for another field, 40539 without `date`); an
 * array must hold exactly one date (40536); anything else is the date.
 */
export function parseDateAcceptingTimeZone(name: string, arg: unknown, scope: ParseScope): DateArgument {
  if (isDocument(arg)) {
    const keys = Object.keys(arg);
    if (keys.length > 0 && keys[0]!.charCodeAt(0) === 36 /* $ */) {
      return { date: scope.parse(arg), zone: parseTimeZoneArgument(undefined, scope) };
    }
    let date: Evaluator | undefined;
    let timezone: unknown;
    for (const key of keys) {
      if (key === 'date') date = scope.parse(arg[key]);
      else if (key === 'timezone') timezone = arg[key];
      else throw new CommandError(40535, `unrecognized option to ${name}: "${key}"`);
    }
    if (date === undefined) {
      throw new CommandError(40539, `missing 'date' argument to ${name}, provided: ${formatElement(name, arg)}`);
    }
    return { date, zone: parseTimeZoneArgument(timezone, scope) };
  }
  if (Array.isArray(arg)) {
    if (arg.length !== 1) {
      throw new CommandError(40536, `${name} accepts exactly one argument if given an array, but was given ${arg.length}`);
    }
    return { date: scope.parse(arg[0]), zone: parseTimeZoneArgument(undefined, scope) };
  }
  return { date: scope.parse(arg), zone: parseTimeZoneArgument(undefined, scope) };
}

/** What a date-part operator returns of the instant `ms` in `zone`. */
export type DatePartOf = (ms: number, zone: TimeZone) => unknown;

/**
 * A date-part operator (`evaluateDateTimezoneArg`): null for a null or missing date, 16006 for
 * a value that is no date, then null for a null zone, else the part.
 */
export function datePartOperator(name: `$${string}`, part: DatePartOf): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const { date, zone } = parseDateAcceptingTimeZone(name, arg, scope);
      return (frame) => {
        const v = date(frame);
        if (isNullish(v)) return null;
        const ms = coerceToDateMs(v);
        const z = zone(frame);
        if (z === null) return null;
        return part(ms, z);
      };
    },
  };
}

/** The civil parts of `ms` in `zone`. */
export function partsOf(ms: number, zone: TimeZone): DateParts {
  return dateParts(ms, zone);
}

/** `TimeZone::dayOfWeek`: 1 (Sunday) – 7 (Saturday). */
export function dayOfWeekOf(ms: number, zone: TimeZone): number {
  const p = dateParts(ms, zone);
  return dayOfWeek(p.year, p.month, p.day);
}

/** `TimeZone::dayOfYear`: 1 – 366. */
export function dayOfYearOf(ms: number, zone: TimeZone): number {
  const p = dateParts(ms, zone);
  return dayOfYear(p.year, p.month, p.day);
}

/** `TimeZone::week`: 0 (the days before the first Sunday) – 53, weeks starting on Sunday. */
export function weekOf(ms: number, zone: TimeZone): number {
  return weekOfParts(dateParts(ms, zone));
}

function weekOfParts(p: DateParts): number {
  const prevSunday = dayOfYear(p.year, p.month, p.day) - dayOfWeek(p.year, p.month, p.day);
  return Math.trunc((prevSunday + 7) / 7);
}

/** ISO 8601 week date of `ms` in `zone`. */
export function isoOf(ms: number, zone: TimeZone): { isoYear: number; isoWeek: number; isoDayOfWeek: number } {
  const p = dateParts(ms, zone);
  return isoWeekDate(p.year, p.month, p.day);
}

/** `$isoWeekYear`'s result: a long long in mongod, so an Int64. */
export function isoWeekYearOf(ms: number, zone: TimeZone): Long {
  return Long.fromNumber(isoOf(ms, zone).isoYear);
}

/** True for mongod's UTC zone (`TimeZone::isUtcZone`): `UTC` itself or a zero UTC offset. */
export function isUtcZone(zone: TimeZone): boolean {
  return zone.fixed && zone.offsetMs(0) === 0;
}

// ---------------------------------------------------------------------------------------------
// Formats.

/** The specifiers `$dateToString` accepts (`kDateToStringFormatMap`), `%%` aside. */
const TO_STRING_SPECIFIERS = new Set('bBdGHjLmMSwuUVYzZ');
/** The specifiers `$dateFromString` accepts (`kDateFromStringFormatMap`), `%%` aside. */
const FROM_STRING_SPECIFIERS = new Set('bBdGHjLmMSuVYzZ');

function validateFormat(format: string, allowed: ReadonlySet<string>): void {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    i++;
    if (i >= format.length) throw new CommandError(18535, "Unmatched '%' at end of format string");
    const c = format[i]!;
    if (c !== '%' && !allowed.has(c)) throw new CommandError(18536, `Invalid format character '%${c}' in format string`);
  }
}

/** `TimeZone::validateToStringFormat`: 18535 for a trailing `%`, 18536 for an unknown specifier. */
export function validateToStringFormat(format: string): void {
  validateFormat(format, TO_STRING_SPECIFIERS);
}

/** `TimeZone::validateFromStringFormat`: as for `$dateToString`, without `%w` and `%U`. */
export function validateFromStringFormat(format: string): void {
  validateFormat(format, FROM_STRING_SPECIFIERS);
}

/** mongod's default formats: with a `Z` in UTC, without elsewhere. */
export const ISO_FORMAT_Z = '%Y-%m-%dT%H:%M:%S.%LZ';
export const ISO_FORMAT_NON_Z = '%Y-%m-%dT%H:%M:%S.%L';

const MONTHS_FULL = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `TimeZone::insertPadded`: 0–9999 zero-padded to `width`, else 18537. */
function padded(n: number, width: number): string {
  if (n < 0 || n > 9999) {
    throw new CommandError(18537, `Could not convert date to string: date component was outside the supported range of 0-9999: ${n}`);
  }
  return String(n).padStart(width, '0');
}

/** `TimeZone::formatDate` of a validated format. */
export function formatDate(format: string, ms: number, zone: TimeZone): string {
  const p = dateParts(ms, zone);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== '%') {
      out += ch;
      continue;
    }
    const c = format[++i]!;
    switch (c) {
      case '%':
        out += '%';
        break;
      case 'Y':
        out += padded(p.year, 4);
        break;
      case 'm':
        out += padded(p.month, 2);
        break;
      case 'd':
        out += padded(p.day, 2);
        break;
      case 'H':
        out += padded(p.hour, 2);
        break;
      case 'M':
        out += padded(p.minute, 2);
        break;
      case 'S':
        out += padded(p.second, 2);
        break;
      case 'L':
        out += padded(p.millisecond, 3);
        break;
      case 'j':
        out += padded(dayOfYear(p.year, p.month, p.day), 3);
        break;
      case 'w':
        out += padded(dayOfWeek(p.year, p.month, p.day), 1);
        break;
      case 'U':
        out += padded(weekOfParts(p), 2);
        break;
      case 'G':
        out += padded(isoWeekDate(p.year, p.month, p.day).isoYear, 4);
        break;
      case 'V':
        out += padded(isoWeekDate(p.year, p.month, p.day).isoWeek, 2);
        break;
      case 'u':
        out += padded(isoWeekDate(p.year, p.month, p.day).isoDayOfWeek, 1);
        break;
      case 'b':
        out += MONTHS_FULL[p.month - 1]!.slice(0, 3);
        break;
      case 'B':
        out += MONTHS_FULL[p.month - 1]!;
        break;
      case 'z': {
        const seconds = Math.trunc(zone.offsetMs(ms) / 1000);
        out += seconds < 0 ? '-' : '+';
        out += padded(Math.abs(Math.trunc(seconds / 3600)), 2);
        out += padded(Math.abs(Math.trunc(seconds / 60)) % 60, 2);
        break;
      }
      case 'Z':
        out += String(Math.trunc(zone.offsetMs(ms) / 60_000) || 0);
        break;
      default:
        break;
    }
  }
  return out;
}
