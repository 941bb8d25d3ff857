/**
 * Boolean and conditional expression operators: `$and $or $not $cond $ifNull`
 * (mongo/src/mongo/db/pipeline/expression.cpp). Truthiness is `Value::coerceToBool`.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../values/paths.js';
import {
  parseArguments,
  parseFixedArguments,
  parseOperand,
  type Evaluator,
  type OperatorParser,
} from '../expression_core.js';
import { isNullish, toBool } from '../value.js';

function parseCond(arg: unknown, ps: Parameters<OperatorParser>[1], name: string): Evaluator {
  let ifE: Evaluator | undefined;
  let thenE: Evaluator | undefined;
  let elseE: Evaluator | undefined;
  if (isDocument(arg)) {
    for (const [key, value] of Object.entries(arg as Document)) {
      if (key === 'if') ifE = parseOperand(value, ps);
      else if (key === 'then') thenE = parseOperand(value, ps);
      else if (key === 'else') elseE = parseOperand(value, ps);
      else throw new CommandError(17083, `Unrecognized parameter to $cond: ${key}`);
    }
    if (ifE === undefined) throw new CommandError(17080, "Missing 'if' parameter to $cond");
    if (thenE === undefined) throw new CommandError(17081, "Missing 'then' parameter to $cond");
    if (elseE === undefined) throw new CommandError(17082, "Missing 'else' parameter to $cond");
  } else {
    [ifE, thenE, elseE] = parseFixedArguments(name, arg, ps, 3) as [Evaluator, Evaluator, Evaluator];
  }
  const c = ifE;
  const t = thenE;
  const e = elseE;
  return (ctx) => (toBool(c(ctx)) ? t(ctx) : e(ctx));
}

/** The boolean and conditional operators. */
export const LOGICAL_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $and: (arg, ps) => {
    const args = parseArguments(arg, ps);
    return (ctx) => args.every((a) => toBool(a(ctx)));
  },
  $or: (arg, ps) => {
    const args = parseArguments(arg, ps);
    return (ctx) => args.some((a) => toBool(a(ctx)));
  },
  $not: (arg, ps, name) => {
    const [a] = parseFixedArguments(name, arg, ps, 1) as [Evaluator];
    return (ctx) => !toBool(a(ctx));
  },
  $cond: parseCond,
  $ifNull: (arg, ps) => {
    const args = parseArguments(arg, ps);
    if (args.length < 2) {
      throw new CommandError(1257300, `$ifNull needs at least two arguments, had: ${args.length}`);
    }
    const last = args[args.length - 1]!;
    const inputs = args.slice(0, -1);
    return (ctx) => {
      for (const input of inputs) {
        const v = input(ctx);
        if (!isNullish(v)) return v;
      }
      return last(ctx);
    };
  },
};
