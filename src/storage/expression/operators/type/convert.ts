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
import { parseByteOrder, parseFormat, parseTarget, type ConvertOptions } from './_internal/options.js';

const ARGUMENTS: ReadonlySet<string> = new Set(['input', 'to', 'format', 'byteOrder', 'onError', 'onNull']);

/** True for an argument that is absent or a constant without field paths or operators. */
function isLiteral(v: unknown): boolean {
  if (v === undefined) return true;
  if (typeof v === 'string') return !v.startsWith('$');
  if (Array.isArray(v)) return false;
  if (bsonTypeOf(v) === 'object') {
    const doc = v as Record<string, unknown>;
    return Object.keys(doc).every((k) => !k.startsWith('$') && isLiteral(doc[k]) && doc[k] !== undefined);
  }
  return true;
}

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
    // A literal `to`, `format` and `byteOrder` (the common case) are read once, on the first
    // document that gets that far; their failures are thrown again on every document.
    const literal = isLiteral(spec['to']) && isLiteral(spec['format']) && isLiteral(spec['byteOrder']);
    let fixed: ConvertOptions | null | undefined;
    const options = (frame: Parameters<Evaluator>[0], value: unknown): ConvertOptions | null | typeof MISSING => {
      if (fixed !== undefined) return isNullish(value) ? MISSING : fixed;
      const targetInfo = parseTarget(to(frame));
      if (isNullish(value)) return MISSING;
      const result =
        targetInfo === null
          ? null
          : {
              target: targetInfo.target,
              subtype: targetInfo.subtype,
              format: parseFormat(format === undefined ? MISSING : format(frame)),
              littleEndian: parseByteOrder(byteOrder === undefined ? MISSING : byteOrder(frame)),
            };
      if (literal) fixed = result;
      return result;
    };
    return (frame) => {
      const value = input(frame);
      const opts = options(frame, value);
      if (opts === MISSING) return onNull === undefined ? null : onNull(frame);
      if (opts === null) return null;
      if (onError === undefined) return convertValue(value, opts);
      try {
        return convertValue(value, opts);
      } catch (err) {
        if (isConversionFailure(err)) return onError(frame);
        throw err;
      }
    };
  },
};
