/**
 * `$dateToParts` (ExpressionDateToParts): a date split into a document of Int32 parts, `year`,
 * `month`, `day`, `hour`, `minute`, `second`, `millisecond`, or with `iso8601: true` `isoWeekYear`,
 * `isoWeek`, `isoDayOfWeek` and the time. Per document: the zone (null gives null), the
 * `iso8601` flag (null gives null, not a bool 40521), then a null or missing date gives null and
 * a value that is no date 16006.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { isDocument } from '../../../values/paths.js';
import { dateParts, isoWeekDate } from '../../../values/timezone.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import { coerceToDateMs, parseTimeZoneArgument } from './_internal/operands.js';

/** `{$dateToParts: {date, timezone?, iso8601?}}`. */
export const dateToParts: ExpressionOperator = {
  name: '$dateToParts',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(40524, '$dateToParts only supports an object as its argument');
    let date: Evaluator | undefined;
    let timezone: unknown;
    let iso8601: Evaluator | undefined;
    for (const key of Object.keys(arg)) {
      if (key === 'date') date = scope.parse(arg[key]);
      else if (key === 'timezone') timezone = arg[key];
      else if (key === 'iso8601') iso8601 = scope.parse(arg[key]);
      else throw new CommandError(40520, `Unrecognized argument to $dateToParts: ${key}`);
    }
    if (date === undefined) throw new CommandError(40522, "Missing 'date' parameter to $dateToParts");
    const dateE = date;
    const isoE = iso8601;
    const zoneOf = parseTimeZoneArgument(timezone, scope);
    return (frame) => {
      const v = dateE(frame);
      const zone = zoneOf(frame);
      if (zone === null) return null;
      let iso = false;
      if (isoE !== undefined) {
        const flag = isoE(frame);
        if (isNullish(flag)) return null;
        if (typeof flag !== 'boolean') throw new CommandError(40521, `iso8601 must evaluate to a bool, found ${bsonTypeOf(flag)}`);
        iso = flag;
      }
      if (isNullish(v)) return null;
      const p = dateParts(coerceToDateMs(v), zone);
      if (iso) {
        const w = isoWeekDate(p.year, p.month, p.day);
        return {
          isoWeekYear: w.isoYear,
          isoWeek: w.isoWeek,
          isoDayOfWeek: w.isoDayOfWeek,
          hour: p.hour,
          minute: p.minute,
          second: p.second,
          millisecond: p.millisecond,
        };
      }
      return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second, millisecond: p.millisecond };
    };
  },
};
