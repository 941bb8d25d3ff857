/**
 * The tables of the string operator tests: each row is parsed by the real expression parser
 * and evaluated against one document, its value compared with its BSON types (`expectExact`),
 * its error with its code and message (`expectCommandError`).
 */
import { describe, it } from 'vitest';
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

/** A row: what it shows, the expression, the value it evaluates to. */
export type Row = [string, unknown, unknown];
/** An error row: what it shows, the expression, the code and the message. */
export type ErrorRow = [string, unknown, number, string];

/** Evaluates `expr` against `doc` (an absent value is `undefined`). */
export function evaluate(expr: unknown, doc: Document = {}): unknown {
  return new ExpressionContext({ now: new Date(0) }).compile(expr)(doc);
}

/** A table of values, evaluated against `doc`. */
export function values(title: string, rows: readonly Row[], doc: Document = {}): void {
  describe(title, () => {
    for (const [name, expr, expected] of rows) it(name, () => expectExact({ v: evaluate(expr, doc) }, { v: expected }));
  });
}

/** A table of errors, evaluated against `doc` (parse-time and run-time alike). */
export function errors(title: string, rows: readonly ErrorRow[], doc: Document = {}): void {
  describe(title, () => {
    for (const [name, expr, code, message] of rows) it(name, () => expectCommandError(() => evaluate(expr, doc), code, message));
  });
}
