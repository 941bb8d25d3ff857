/**
 * The filter compiler as commands use it: `compileFilter` with `$expr` wired to the aggregation
 * expression engine (the filter engine itself does not depend on aggregation).
 */
import type { Document } from '../../bson.js';
import { compileExpressionPredicate } from '../aggregation/expressions.js';
import { compileFilter, type Predicate } from './compile_filter.js';

/** Compiles a command's query filter; `nowMs` is `$$NOW` inside `$expr`. */
export function compileQuery(filter: Document, nowMs: number): Predicate {
  const now = new Date(nowMs);
  return compileFilter(filter, { compileExpr: (expr) => compileExpressionPredicate(expr, { now }) });
}
