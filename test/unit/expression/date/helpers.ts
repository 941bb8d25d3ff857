/** Evaluation of date expressions through the real parser, for the tables of this folder. */
import type { Document } from '../../../../src/bson/library.js';
import { ExpressionContext } from '../../../../src/storage/expression/context.js';

const CONTEXT = new ExpressionContext({ now: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) });

/** `{v: <expr evaluated against doc>}`, so a missing result shows as an absent field. */
export function evaluate(expr: unknown, doc: Document = {}): Document {
  const v = CONTEXT.compile(expr)(doc);
  return v === undefined ? {} : { v };
}

/** Compiling alone (parse-time errors). */
export function compile(expr: unknown): void {
  CONTEXT.parse(expr);
}
