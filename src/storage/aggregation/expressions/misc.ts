/**
 * `$literal`/`$const`, `$type`, and the accumulator expressions `$sum $avg $min $max`
 * (mongo/src/mongo/db/pipeline/expression.cpp, `ExpressionFromAccumulator`): given one
 * argument that evaluates to an array they accumulate its elements, otherwise the arguments.
 */
import { ACCUMULATORS } from '../accumulators.js';
import { constant, parseArguments, parseFixedArguments, type Evaluator, type OperatorParser } from '../expression_core.js';
import { MISSING, typeName } from '../value.js';

function accumulatorExpression(name: string): OperatorParser {
  const create = ACCUMULATORS[name]!;
  return (arg, ps) => {
    const args = parseArguments(arg, ps);
    return (ctx) => {
      const acc = create();
      if (args.length === 1) {
        const v = args[0]!(ctx);
        if (Array.isArray(v)) for (const el of v) acc.process(el);
        else acc.process(v);
      } else {
        for (const a of args) acc.process(a(ctx));
      }
      const r = acc.result();
      return r === MISSING ? null : r;
    };
  };
}

/** `$literal`, `$const`, `$type` and the accumulator expressions. */
export const MISC_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $literal: (arg) => constant(arg),
  $const: (arg) => constant(arg),
  $type: (arg, ps, name) => {
    const [a] = parseFixedArguments(name, arg, ps, 1) as [Evaluator];
    return (ctx) => typeName(a(ctx));
  },
  $sum: accumulatorExpression('$sum'),
  $avg: accumulatorExpression('$avg'),
  $min: accumulatorExpression('$min'),
  $max: accumulatorExpression('$max'),
};
