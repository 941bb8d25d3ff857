/**
 * `$literal`/`$const`, `$type`, `$rand`, and the accumulator expressions `$sum $avg $min $max`
 * (mongo/src/mongo/db/pipeline/expression.cpp, `ExpressionFromAccumulator`): given one
 * argument that evaluates to an array they accumulate its elements, otherwise the arguments.
 */
import { makeDouble } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { ACCUMULATORS } from '../accumulators.js';
import { constant, parseArguments, parseFixedArguments, type Evaluator, type OperatorParser } from '../expression_core.js';
import { MISSING, isDocument, typeName } from '../value.js';

/**
 * `{$rand: {}}` (or `[]`): a Double in [0, 1) per evaluation. Anything but an object or array
 * is BSONElement::Obj's 10065; a non-empty one 3040501.
 */
const parseRand: OperatorParser = (arg, _ps, name) => {
  if (!isDocument(arg) && !Array.isArray(arg)) {
    throw new CommandError(10065, `invalid parameter: expected an object (${name})`);
  }
  if (Object.keys(arg).length > 0) throw new CommandError(3040501, '$rand does not currently accept arguments');
  return () => makeDouble(Math.random());
};

function accumulatorExpression(name: string): OperatorParser {
  const create = ACCUMULATORS[name]!;
  return (arg, ps) => {
    const args = parseArguments(arg, ps);
    return (ctx) => {
      const acc = create(ctx.collator ?? null);
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
  $rand: parseRand,
  $type: (arg, ps, name) => {
    const [a] = parseFixedArguments(name, arg, ps, 1) as [Evaluator];
    return (ctx) => typeName(a(ctx));
  },
  $sum: accumulatorExpression('$sum'),
  $avg: accumulatorExpression('$avg'),
  $min: accumulatorExpression('$min'),
  $max: accumulatorExpression('$max'),
};
