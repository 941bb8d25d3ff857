/**
 * `$dateFromString` (ExpressionDateFromString): the date a string names, read without a format
 * as timelib's `strtotime` reads it or through `format` (`%Y-%m-%d`, ...), its wall time in
 * `timezone` unless the string carries its own offset. Per document, in mongod's order: the
 * format (40684 not a string, 18535/18536 bad specifiers), the zone (40517/40485), then a null
 * or missing `dateString` gives `onNull` (null without it); a `dateString` that is no string or
 * cannot be read is 241 ConversionFailure, which `onError` replaces; a null zone or format gives
 * null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { parseDateString, parseDateStringWithFormat } from '../../../values/date_parse.js';
import { docValueToString } from '../../../values/format.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import { parseTimeZoneArgument } from './_internal/operands.js';
import { validateFromStringFormat } from './_internal/parts.js';

/** `{$dateFromString: {dateString, format?, timezone?, onNull?, onError?}}`. */
export const dateFromString: ExpressionOperator = {
  name: '$dateFromString',
  parse(arg, scope) {
    if (!isDocument(arg)) {
      throw new CommandError(40540, `$dateFromString only supports an object as an argument, found: ${bsonTypeOf(arg)}`);
    }
    let dateString: Evaluator | undefined;
    let format: Evaluator | undefined;
    let timezone: unknown;
    let onNull: Evaluator | undefined;
    let onError: Evaluator | undefined;
    for (const key of Object.keys(arg)) {
      if (key === 'format') format = scope.parse(arg[key]);
      else if (key === 'dateString') dateString = scope.parse(arg[key]);
      else if (key === 'timezone') timezone = arg[key];
      else if (key === 'onNull') onNull = scope.parse(arg[key]);
      else if (key === 'onError') onError = scope.parse(arg[key]);
      else throw new CommandError(40541, `Unrecognized argument to $dateFromString: ${key}`);
    }
    if (dateString === undefined) throw new CommandError(40542, "Missing 'dateString' parameter to $dateFromString");
    const stringE = dateString;
    const formatE = format;
    const onNullE = onNull;
    const onErrorE = onError;
    const zoneOf = parseTimeZoneArgument(timezone, scope);
    return (frame) => {
      const text = stringE(frame);
      let fmt: unknown;
      if (formatE !== undefined) {
        fmt = formatE(frame);
        if (!isNullish(fmt)) {
          if (typeof fmt !== 'string') {
            throw new CommandError(
              40684,
              `$dateFromString requires that 'format' be a string, found: ${bsonTypeOf(fmt)} with value ${docValueToString(fmt)}`,
            );
          }
          validateFromStringFormat(fmt);
        }
      }
      const zone = zoneOf(frame);
      if (isNullish(text)) return onNullE === undefined ? null : onNullE(frame);
      try {
        if (typeof text !== 'string') {
          throw new CommandError(
            241,
            `$dateFromString requires that 'dateString' be a string, found: ${bsonTypeOf(text)} with value ${docValueToString(text)}`,
          );
        }
        if (zone === null) return null;
        if (formatE !== undefined) {
          if (isNullish(fmt)) return null;
          return new Date(parseDateStringWithFormat(text, fmt as string, zone));
        }
        return new Date(parseDateString(text, zone));
      } catch (err) {
        if (onErrorE !== undefined && err instanceof CommandError && err.code === 241) return onErrorE(frame);
        throw err;
      }
    };
  },
};
