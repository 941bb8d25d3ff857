/**
 * `$convert` (ExpressionConvert, mongo/src/mongo/db/exec/expression/evaluate_convert.cpp):
 * `{input, to, format?, byteOrder?, onError?, onNull?}`. Every argument is evaluated and `to`
 * read (a name, a number or `{type, subtype}`) first; then a nullish input gives `onNull` (null
 * without it), a nullish `to` null; then `format` and `byteOrder` are checked and the input
 * converted (the subtype checked when a BinData is made), a 241 ConversionFailure giving
 * `onError` when there is one.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { MISSING, isNullish } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { convertValue } from './_internal/convert.js';
import { isConversionFailure } from './_internal/failure.js';
import { parseByteOrder, parseFormat, parseTarget } from './_internal/options.js';

const ARGUMENTS: ReadonlySet<string> = new Set(['input', 'to', 'format', 'byteOrder', 'onError', 'onNull']);

/** `{$convert: {...}}`. */
export const convert: ExpressionOperator = {
  name: '$convert',
  parse(arg, scope) {
    if (bsonTypeOf(arg) !== 'object' || arg === MISSING) {
      throw new CommandError(9, `$convert expects an object of named arguments but found: ${typeName(arg)}`);
    }
    const spec = arg as Record<string, unknown>;
    const parsed: Record<string, Evaluator> = {};
    for (const key of Object.keys(spec)) {
      if (!ARGUMENTS.has(key)) throw new CommandError(9, `$convert found an unknown argument: ${key}`);
      parsed[key] = scope.parse(spec[key]);
    }
    const input = parsed['input'];
    const to = parsed['to'];
    if (input === undefined) throw new CommandError(9, "Missing 'input' parameter to $convert");
    if (to === undefined) throw new CommandError(9, "Missing 'to' parameter to $convert");
    const format = parsed['format'];
    const byteOrder = parsed['byteOrder'];
    const onError = parsed['onError'];
    const onNull = parsed['onNull'];
    return (frame) => {
      const toValue = to(frame);
      const value = input(frame);
      const formatValue = format === undefined ? MISSING : format(frame);
      const byteOrderValue = byteOrder === undefined ? MISSING : byteOrder(frame);
      const targetInfo = parseTarget(toValue);
      if (isNullish(value)) return onNull === undefined ? null : onNull(frame);
      if (targetInfo === null) return null;
      const options = {
        target: targetInfo.target,
        subtype: targetInfo.subtype,
        format: parseFormat(formatValue),
        littleEndian: parseByteOrder(byteOrderValue),
      };
      if (onError === undefined) return convertValue(value, options);
      try {
        return convertValue(value, options);
      } catch (err) {
        if (isConversionFailure(err)) return onError(frame);
        throw err;
      }
    };
  },
};
