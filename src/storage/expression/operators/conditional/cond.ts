/**
 * `$cond` (ExpressionCond): `then` when `if` is truthy, else `else`; as `{if, then, else}` (each
 * required, no other field: 17080-17083) or as `[if, then, else]` (16020 for another count).
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isDocument } from '../../../values/paths.js';
import { toBool } from '../../value.js';

/** `{$cond: {if, then, else}}` or `{$cond: [if, then, else]}`. */
export const cond: ExpressionOperator = {
  name: '$cond',
  parse(arg, scope) {
    let ifE: Evaluator | undefined;
    let thenE: Evaluator | undefined;
    let elseE: Evaluator | undefined;
    if (isDocument(arg)) {
      for (const [key, value] of Object.entries(arg)) {
        if (key === 'if') ifE = scope.parse(value);
        else if (key === 'then') thenE = scope.parse(value);
        else if (key === 'else') elseE = scope.parse(value);
        else throw new CommandError(17083, `Unrecognized parameter to $cond: ${key}`);
      }
      if (ifE === undefined) throw new CommandError(17080, "Missing 'if' parameter to $cond");
      if (thenE === undefined) throw new CommandError(17081, "Missing 'then' parameter to $cond");
      if (elseE === undefined) throw new CommandError(17082, "Missing 'else' parameter to $cond");
    } else {
      [ifE, thenE, elseE] = scope.parseFixedArguments('$cond', arg, 3) as [Evaluator, Evaluator, Evaluator];
    }
    const c = ifE;
    const t = thenE;
    const e = elseE;
    return (frame) => (toBool(c(frame)) ? t(frame) : e(frame));
  },
};
