/**
 * Evaluates expressions through the real parser (ExpressionContext, as a command would) and
 * turns `[description, expression, expected]` rows into exact-type assertions; shared by the
 * set, conditional, object, misc, boolean and variable tables.
 */
import { it } from 'vitest';
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { collatorOf, normaliseCollation } from '../../../../src/storage/indexes/collation.js';
import type { Collator } from '../../../../src/storage/values/collator.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

const NOW = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

/** The collator of a collation document as a command gives it. */
export function collation(spec: Document): Collator | null {
  return collatorOf(normaliseCollation(spec));
}

/** Parses `expr` (parse-time errors throw here). */
export function compile(expr: unknown, collator: Collator | null = null): (doc: Document) => unknown {
  return new ExpressionContext({ now: NOW, collator }).compile(expr);
}

/** Parses `expr` and evaluates it against `doc` (a missing result is `undefined`). */
export function evaluate(expr: unknown, doc: Document = {}, collator: Collator | null = null): unknown {
  return compile(expr, collator)(doc);
}

/** One test per row: the value of the expression, exactly (types and field order). */
export function valueTable(rows: Array<[string, unknown, unknown]>, doc: Document = {}, collator: Collator | null = null): void {
  for (const [name, expr, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr, doc, collator) }, { v: expected }));
  }
}

/** One test per row: the error an expression raises when evaluated (or parsed) against `doc`. */
export function errorTable(rows: Array<[string, unknown, number, string]>, doc: Document = {}): void {
  for (const [name, expr, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr, doc), code, message));
  }
}

/** One test per row: the error raised when parsing, with no document read. */
export function parseErrorTable(rows: Array<[string, unknown, number, string]>): void {
  for (const [name, expr, code, message] of rows) {
    it(name, () => expectCommandError(() => compile(expr), code, message));
  }
}
