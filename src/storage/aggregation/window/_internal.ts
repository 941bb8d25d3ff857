/**
 * What several window functions share: the parse of a function that takes one expression and
 * no `window` (`$locf`, `$linearFill`: ExpressionFromLeftUnboundedWindowFunction), of the rank
 * family (`$rank`, `$denseRank`, `$documentNumber`: ExpressionFromRankAccumulator), and the
 * `sortBy` requirements of `$derivative`/`$integral` (ExpressionWithUnit).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Evaluator } from '../../expression/types.js';
import { isDocument } from '../../values/paths.js';
import { sortKeyValue, type SortKey } from '../../query/sort.js';
import { compareValues } from '../../values/compare.js';
import type { Collator } from '../../values/collator.js';
import { intOrLong } from '../../values/numeric.js';
import type { TimeUnit } from '../../expression/operators/date/_internal/arithmetic.js';
import type { WindowParseContext, WindowSortBy } from './types.js';

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);

/** `{<name>: <expression>}` with no `window` (a field `window` is refused after the others). */
export function parseFramelessExpression(name: string, spec: Document, ctx: WindowParseContext): Evaluator {
  let windowSeen = false;
  for (const field of Object.keys(spec)) {
    if (field === 'window') windowSeen = true;
    else if (field === name) continue;
    else if (ctx.isFunction(field)) throw parseError('Cannot specify two functions in window function spec');
    else throw parseError(`Window function found an unknown argument: ${field}`);
  }
  if (windowSeen) throw parseError(`'window' field is not allowed in ${name}`);
  return ctx.expressions.parse(spec[name]);
}

/** The checks of `$rank`, `$denseRank`, `$documentNumber`: `{<name>: {}}` alone, one sortBy field. */
export function parseRankStyle(name: string, spec: Document, ctx: WindowParseContext): WindowSortBy {
  if (Object.keys(spec).length !== 1) throw new CommandError(5371601, 'Rank style window functions take no other arguments');
  const arg = spec[name];
  if (!isDocument(arg) || Object.keys(arg).length !== 0) {
    throw new CommandError(5371603, `${name} must be specified with '{}' as the value`);
  }
  const sortBy = ctx.sortBy;
  if (sortBy === null || sortBy.keys.length !== 1) {
    throw new CommandError(5371602, `${name} must be specified with a top level sortBy expression with exactly one element`);
  }
  return sortBy;
}

/** `ExpressionWithUnit::validateSortBy`: one field, not an expression. */
export function requireSingleSortBy(name: string, ctx: WindowParseContext): WindowSortBy {
  const sortBy = ctx.sortBy;
  if (sortBy === null) throw parseError(`${name} requires a sortBy`);
  if (sortBy.keys.length !== 1) throw parseError(`${name} requires a non-compound sortBy`);
  return sortBy;
}

const UNIT_MS: Partial<Record<TimeUnit, number>> = {
  week: 604_800_000,
  day: 86_400_000,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
  millisecond: 1,
};

/** `ExpressionWithUnit::parseUnit`: a string naming `week` or a smaller unit; its milliseconds. */
export function parseOutputUnit(v: unknown): number {
  if (typeof v !== 'string') throw parseError(`unit' must be a string, but got ${typeNumber(v)}`);
  if (v === 'year' || v === 'quarter' || v === 'month') throw new CommandError(5490710, "unit must be 'week' or smaller");
  const ms = UNIT_MS[v as TimeUnit];
  if (ms === undefined) throw parseError(`unknown time unit value: ${v}`);
  return ms;
}

/** mongod prints a BSON type by its number in a few messages. */
function typeNumber(v: unknown): number {
  if (typeof v === 'number') return v === Math.trunc(v) && Math.abs(v) < 2 ** 31 ? 16 : 1;
  if (typeof v === 'boolean') return 8;
  if (v === null) return 10;
  if (Array.isArray(v)) return 4;
  if (v instanceof Date) return 9;
  return 3;
}

/** Evaluates a binary arithmetic expression (`$subtract`, `$divide`...) over two values, as mongod's helpers do. */
export function arithmetic(ctx: WindowParseContext, op: '$add' | '$subtract' | '$multiply' | '$divide'): (a: unknown, b: unknown) => unknown {
  const ev = ctx.expressions.parse({ [op]: ['$a', '$b'] });
  return (a, b) => ev(ctx.expressions.frame({ a, b }));
}

/**
 * The ranks of a partition's documents by `key` into `out`: ties share a rank; `$rank` then skips
 * the positions the ties took (1, 1, 3), `$denseRank` does not (1, 1, 2).
 */
export function computeRanks(docs: readonly Document[], key: SortKey, collator: Collator | null, out: unknown[], dense: boolean): void {
  let last: unknown;
  let current = 0;
  docs.forEach((doc, i) => {
    const v = sortKeyValue(doc, key, collator);
    if (i === 0 || compareValues(v, last, collator) !== 0) current = dense ? current + 1 : i + 1;
    last = v;
    out[i] = intOrLong(BigInt(current));
  });
}
