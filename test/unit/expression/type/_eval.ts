/** Compiles and runs one expression through the real parser, as the aggregation tests do. */
import { it } from 'vitest';
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

const CTX = { now: new Date(1_700_000_000_000) };

/** The value of `expr` against `doc`. */
export function evaluate(expr: unknown, doc: Document = {}): unknown {
  return new ExpressionContext(CTX).compile(expr)(doc);
}

/** One `it` per `[description, expression, expected]` row, asserting value and BSON type. */
export function table(rows: Array<[string, unknown, unknown]>): void {
  for (const [name, expr, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr) }, { v: expected }));
  }
}

/** One `it` per `[description, expression, code, message]` row. */
export function errors(rows: Array<[string, unknown, number, string]>): void {
  for (const [name, expr, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr), code, message));
  }
}
