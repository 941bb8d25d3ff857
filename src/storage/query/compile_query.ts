/**
 * The filter compiler as commands use it: `compileFilter` with `$expr` wired to the expression
 * language (the filter engine itself knows no expression: `compileExpr` is injected), in an
 * `ExpressionContext` holding the command's `let` variables, `$$NOW` and the collation.
 */
import type { Document } from '../../bson/library.js';
import { ExpressionContext } from '../expression/context.js';
import type { CommandVariables } from '../expression/let.js';
import type { Collator } from '../values/collator.js';
import { compileFilter, type FilterOptions, type Predicate } from './compile_filter.js';

/**
 * Compiles a command's query filter; `nowMs` is `$$NOW` inside `$expr`, `vars` the command's
 * variables, `collator` the query's collation (null or absent: simple); `context` says whether
 * `$where` and the near operators may appear (FilterOptions; default: as find).
 */
export function compileQuery(
  filter: Document,
  nowMs: number,
  vars?: CommandVariables,
  collator?: Collator | null,
  context: Pick<FilterOptions, 'whereAllowed' | 'nearAllowed'> = {},
): Predicate {
  let expressions: ExpressionContext | undefined;
  return compileFilter(filter, {
    ...context,
    collator,
    compileExpr: (expr) => {
      expressions ??= new ExpressionContext({ now: new Date(nowMs), collator, variables: vars });
      return expressions.predicate(expr);
    },
  });
}
