/**
 * `$expMovingAvg` (window_function_expression.cpp ExpressionExpMovingAvg,
 * accumulator_exp_moving_avg.cpp): `{$expMovingAvg: {input, N | alpha}}`, no `window`, a `sortBy`
 * required. Over the documents up to the current one: the first numeric input, then
 * `input·α + previous·(1 − α)` (α = 2 / (N + 1)); non-numeric inputs leave it as it was (null
 * before the first), computed in Decimal128 as mongod does; a Double, or a Decimal128 once a
 * Decimal128 input is seen.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { Decimal128 } from '../../../../bson/library.js';
import type { Evaluator } from '../../../expression/types.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { formatElement } from '../../../values/format.js';
import { doubleOf, integerOf, isNumber, numKind, toDouble } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import type { WindowFunctionDefinition } from '../types.js';

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);
const SHAPE = "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field";

/** `$expMovingAvg`. */
export const expMovingAvg: WindowFunctionDefinition = {
  name: '$expMovingAvg',
  parse(spec, ctx) {
    const keys = Object.keys(spec);
    if (keys.length !== 1 || keys[0] !== '$expMovingAvg' || !isDocument(spec.$expMovingAvg)) {
      throw parseError('$expMovingAvg must have exactly one argument that is an object');
    }
    const args = spec.$expMovingAvg;
    const has = (f: string): boolean => Object.prototype.hasOwnProperty.call(args, f);
    if (Object.keys(args).length !== 2 || !has('input')) throw parseError(SHAPE);
    if (ctx.sortBy === null) throw parseError("$expMovingAvg requires an explicit 'sortBy'");
    const input: Evaluator = ctx.expressions.parse(args.input);
    const expressions = ctx.expressions;
    const evaluate = (expr: unknown, vars: Record<string, unknown>): unknown => expressions.parse(expr)(expressions.frame(vars));
    // mongod computes in Decimal128 throughout (coerceToDecimal), α a Decimal128.
    let alpha: unknown;
    if (has('N')) {
      const nv = args.N;
      if (!isNumber(nv)) throw parseError(`'N' field must be an integer, but found type ${bsonTypeOf(nv)}`);
      const n = integerOf(nv, 'exact');
      if (n === undefined || n === null) {
        throw parseError(`'N' field must be an integer, but found  ${formatElement('N', nv)}. To use a non-integer, use the 'alpha' argument instead`);
      }
      if (n <= 0n) throw parseError(`'N' must be greater than zero. Got ${n}`);
      alpha = evaluate({ $divide: [Decimal128.fromString('2'), Decimal128.fromString(String(n + 1n))] }, {});
    } else if (has('alpha')) {
      const av = args.alpha;
      if (!isNumber(av)) throw parseError("'alpha' must be a number");
      const a = toDouble(av);
      if (!(a > 0 && a < 1)) throw parseError(`'alpha' must be between 0 and 1 (exclusive), found ${formatElement('alpha', av)}`);
      alpha = evaluate({ $toDecimal: '$a' }, { a: av });
    } else {
      throw parseError(`Got unrecognized field in $expMovingAvg${SHAPE}`);
    }
    const rest = evaluate({ $subtract: [Decimal128.fromString('1'), '$a'] }, { a: alpha });
    const toDecimal = expressions.parse({ $toDecimal: '$x' });
    const step = expressions.parse({ $add: [{ $multiply: ['$x', '$a'] }, { $multiply: ['$c', '$r'] }] });
    return {
      compute(p, out) {
        let current: unknown = null;
        let decimal = false;
        for (let i = 0; i < p.docs.length; i++) {
          const v = input(p.frame(i));
          const kind = numKind(v);
          if (kind !== null) {
            if (kind === 'decimal') decimal = true;
            const x = toDecimal(expressions.frame({ x: v }));
            current = current === null ? x : step(expressions.frame({ x, a: alpha, c: current, r: rest }));
          }
          out[i] = current === null ? null : decimal ? current : doubleOf(toDouble(current));
        }
      },
    };
  },
};
