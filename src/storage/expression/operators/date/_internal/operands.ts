/**
 * The operands every date operator shares: the date (mongod's `Value::coerceToDate`: a Date, a
 * Timestamp's seconds, an ObjectId's creation time) and the `timezone` argument
 * (`makeTimeZone` in mongod's expression.cpp: a string naming an Olson zone or a UTC offset).
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { ObjectId, Timestamp } from '../../../../../bson/library.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { constantOperand, isConstant } from '../../../../values/constant_operand.js';
import { type TimeZone, UTC, timeZoneNamed } from '../../../../values/timezone.js';
import type { Evaluator, Frame, ParseScope } from '../../../types.js';
import { isNullish } from '../../../value.js';

/** True for the values `coerceToDateMs` reads (mongod's `Value::coercibleToDate`). */
export function isCoercibleToDate(v: unknown): boolean {
  return v instanceof Date || v instanceof Timestamp || v instanceof ObjectId;
}

/**
 * Milliseconds since the epoch of a value read as a date, or 16006 "can't convert from BSON type
 * <type> to Date". Callers turn null and missing into a null result before calling.
 */
export function coerceToDateMs(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  // A Timestamp's seconds are unsigned; an ObjectId's are signed, as mongod reads them.
  if (v instanceof Timestamp) return v.t * 1000;
  if (v instanceof ObjectId) {
    const seconds = v.getTimestamp().getTime() / 1000;
    return (seconds >= 2 ** 31 ? seconds - 2 ** 32 : seconds) * 1000;
  }
  throw new CommandError(16006, `can't convert from BSON type ${bsonTypeOf(v)} to Date`);
}

/** The zone a `timezone` value names, or 40517 (not a string) / 40485 (not a zone). */
export function timeZoneOf(v: unknown): TimeZone {
  if (typeof v !== 'string') throw new CommandError(40517, `timezone must evaluate to a string, found ${bsonTypeOf(v)}`);
  const zone = timeZoneNamed(v);
  if (zone === null) throw new CommandError(40485, `unrecognized time zone identifier: "${v}"`);
  return zone;
}

/**
 * The evaluator of an optional `timezone` argument: UTC when absent; per document the zone, or
 * null when it evaluates to null or missing (the operator's result is then null). A constant
 * is resolved once, at parse time, so a bad constant zone fails before any document is read.
 */
export function parseTimeZoneArgument(arg: unknown, scope: ParseScope): (frame: Frame) => TimeZone | null {
  if (arg === undefined) return () => UTC;
  const evaluate: Evaluator = scope.parse(arg);
  const value = constantOperand(arg);
  if (isConstant(value)) {
    if (isNullish(value)) return () => null;
    const zone = timeZoneOf(value);
    return () => zone;
  }
  return (frame) => {
    const v = evaluate(frame);
    return isNullish(v) ? null : timeZoneOf(v);
  };
}
