/**
 * `$dateToString` (ExpressionDateToString): a date rendered through a format (`%Y`, `%m`, ...;
 * `TimeZone::formatDate`), by default ISO 8601 with a `Z` in UTC and without one elsewhere.
 * Per document: the format is checked first (18533 not a string, 18535/18536 bad specifiers),
 * then the zone (40517/40485), then a null or missing date gives `onNull` (null without it), a
 * null zone or format gives null, and a value that is no date 16006. Years outside 0–9999 fail
 * with 18537.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import { coerceToDateMs, parseTimeZoneArgument } from './_internal/operands.js';
import { ISO_FORMAT_NON_Z, ISO_FORMAT_Z, formatDate, isUtcZone, validateToStringFormat } from './_internal/parts.js';

/** `{$dateToString: {date, format?, timezone?, onNull?}}`. */
export const dateToString: ExpressionOperator = {
  name: '$dateToString',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(18629, '$dateToString only supports an object as its argument');
    let date: Evaluator | undefined;
    let format: Evaluator | undefined;
    let timezone: unknown;
    let onNull: Evaluator | undefined;
    for (const key of Object.keys(arg)) {
      if (key === 'format') format = scope.parse(arg[key]);
      else if (key === 'date') date = scope.parse(arg[key]);
      else if (key === 'timezone') timezone = arg[key];
      else if (key === 'onNull') onNull = scope.parse(arg[key]);
      else throw new CommandError(18534, `Unrecognized argument to $dateToString: ${key}`);
    }
    if (date === undefined) throw new CommandError(18628, "Missing 'date' parameter to $dateToString");
    const dateE = date;
    const formatE = format;
    const onNullE = onNull;
    const zoneOf = parseTimeZoneArgument(timezone, scope);
    return (frame) => {
      const v = dateE(frame);
      let fmt: unknown;
      if (formatE !== undefined) {
        fmt = formatE(frame);
        if (!isNullish(fmt)) {
          if (typeof fmt !== 'string') {
            throw new CommandError(
              18533,
              `$dateToString requires that 'format' be a string, found: ${bsonTypeOf(fmt)} with value ${docValueToString(fmt)}`,
            );
          }
          validateToStringFormat(fmt);
        }
      }
      const zone = zoneOf(frame);
      if (isNullish(v)) return onNullE === undefined ? null : onNullE(frame);
      if (zone === null) return null;
      if (formatE !== undefined) {
        if (isNullish(fmt)) return null;
        return formatDate(fmt as string, coerceToDateMs(v), zone);
      }
      return formatDate(isUtcZone(zone) ? ISO_FORMAT_Z : ISO_FORMAT_NON_Z, coerceToDateMs(v), zone);
    };
  },
};
