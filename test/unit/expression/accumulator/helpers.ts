/** Evaluates expressions through the real parser, for the accumulator-expression tables. */
import { it } from 'vitest';
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

const CTX = { now: new Date(1_700_000_000_000) };

/** `expr` evaluated against `doc`. */
export function evaluate(expr: unknown, doc: Document = {}): unknown {
  return new ExpressionContext(CTX).compile(expr)(doc);
}

/** Rows of [description, expression, document, expected]. */
export function table(rows: Array<[string, unknown, Document, unknown]>): void {
  for (const [name, expr, doc, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr, doc) }, { v: expected }));
  }
}

/** Rows of [description, expression, document, code, message]. */
export function errorTable(rows: Array<[string, unknown, Document, number, string]>): void {
  for (const [name, expr, doc, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr, doc), code, message));
  }
}
