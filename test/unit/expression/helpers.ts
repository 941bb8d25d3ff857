/**
 * The one harness of the expression tables under `test/unit/expression/`: an expression is
 * compiled by the real parser (`ExpressionContext`, as a command would) and evaluated against a
 * document; a value is compared with its BSON types and field order (`expectExact`), an error
 * with its code and message (`expectCommandError`).
 *
 * - `compile`, `evaluate`, `evaluateField`: one expression, for hand-written `it`s.
 * - `valueRows`, `errorRows`: one `it` per `[description, expression, …]` row, all evaluated
 *   against the same document.
 * - `valueRowsWithDoc`, `errorRowsWithDoc`: the same, each row carrying its own document.
 * - `parseErrorRows`: one `it` per row whose expression must fail to parse (no document read).
 * - `collation`: the collator of a collation document.
 */
import { it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { ExpressionContext } from '../../../src/storage/expression/context.js';
import { collatorOf, normaliseCollation } from '../../../src/storage/indexes/collation.js';
import type { Collator } from '../../../src/storage/values/collator.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

/** The `$$NOW` of every expression compiled here: 2024-01-02T03:04:05Z. */
export const NOW = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

/** A value row: what it shows, the expression, the value it evaluates to. */
export type ValueRow = [description: string, expr: unknown, expected: unknown];
/** An error row: what it shows, the expression, the code and the message of the error. */
export type ErrorRow = [description: string, expr: unknown, code: number, message: string];
/** A value row with its own document. */
export type DocValueRow = [description: string, expr: unknown, doc: Document, expected: unknown];
/** An error row with its own document. */
export type DocErrorRow = [description: string, expr: unknown, doc: Document, code: number, message: string];

/** Parses `expr` into a function of a document (parse-time errors throw here). */
export function compile(expr: unknown, collator: Collator | null = null): (doc: Document) => unknown {
  return new ExpressionContext({ now: NOW, collator }).compile(expr);
}

/** Parses `expr` and evaluates it against `doc` (a missing result is `undefined`). */
export function evaluate(expr: unknown, doc: Document = {}, collator: Collator | null = null): unknown {
  return compile(expr, collator)(doc);
}

/** `{v: <expr evaluated against doc>}`, or `{}` when the result is missing. */
export function evaluateField(expr: unknown, doc: Document = {}, collator: Collator | null = null): Document {
  const v = evaluate(expr, doc, collator);
  return v === undefined ? {} : { v };
}

/** One `it` per row: the value of the expression against `doc`, exactly (types and field order). */
export function valueRows(rows: readonly ValueRow[], doc: Document = {}, collator: Collator | null = null): void {
  for (const [name, expr, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr, doc, collator) }, { v: expected }));
  }
}

/** One `it` per row: the error the expression raises when parsed or evaluated against `doc`. */
export function errorRows(rows: readonly ErrorRow[], doc: Document = {}, collator: Collator | null = null): void {
  for (const [name, expr, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr, doc, collator), code, message));
  }
}

/** One `it` per row: the value of the expression against the row's own document. */
export function valueRowsWithDoc(rows: readonly DocValueRow[]): void {
  for (const [name, expr, doc, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr, doc) }, { v: expected }));
  }
}

/** One `it` per row: the error the expression raises when parsed or evaluated against the row's own document. */
export function errorRowsWithDoc(rows: readonly DocErrorRow[]): void {
  for (const [name, expr, doc, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr, doc), code, message));
  }
}

/** One `it` per row: the error raised when parsing the expression, with no document read. */
export function parseErrorRows(rows: readonly ErrorRow[]): void {
  for (const [name, expr, code, message] of rows) {
    it(name, () => expectCommandError(() => compile(expr), code, message));
  }
}

/** The collator of a collation document, as a command gives it. */
export function collation(spec: Document): Collator | null {
  return collatorOf(normaliseCollation(spec));
}

