/** Compiling and running one expression through the real parser, for the date operator tables of this folder. */
import { it } from 'vitest';
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from '../../aggregation/helpers.js';

const CTX = { now: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) };

/** The value of `expr` against `doc` (missing read as undefined). */
export function evaluate(expr: unknown, doc: Document = {}): unknown {
  return new ExpressionContext(CTX).compile(expr)(doc);
}

/** A UTC date from its parts (month 1–12). */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d;
}

/** Rows of [description, expression, document, expected value]. */
export function valueTable(rows: Array<[string, unknown, Document, unknown]>): void {
  for (const [name, expr, doc, expected] of rows) {
    it(name, () => expectExact({ v: evaluate(expr, doc) }, { v: expected }));
  }
}

/** Rows of [description, expression, document, code, message]: errors raised at parse or run time. */
export function errorTable(rows: Array<[string, unknown, Document, number, string]>): void {
  for (const [name, expr, doc, code, message] of rows) {
    it(name, () => expectCommandError(() => evaluate(expr, doc), code, message));
  }
}

/** Asserts that compiling `expr` alone (no document read) fails with this code and message. */
export function parseErrorTable(rows: Array<[string, unknown, number, string]>): void {
  for (const [name, expr, code, message] of rows) {
    it(`parse: ${name}`, () => expectCommandError(() => new ExpressionContext(CTX).compile(expr), code, message));
  }
}

/** `{v: <expr evaluated against doc>}`, so that a missing result shows as an absent field. */
export function evaluateField(expr: unknown, doc: Document = {}): Document {
  const v = evaluate(expr, doc);
  return v === undefined ? {} : { v };
}

/** Compiles `expr` alone, reading no document (parse-time errors). */
export function compile(expr: unknown): void {
  new ExpressionContext(CTX).parse(expr);
}
