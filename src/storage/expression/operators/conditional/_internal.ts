/**
 * What the conditional operators share: the optimizer's folding of a constant argument
 * (`isFoldableOperand`), done by evaluating it once when parsed so that its errors surface
 * before any document is read, as mongod's `optimize()` of `$ifNull` and `$switch` does.
 */
import type { Document } from '../../../../bson/library.js';
import { isFoldableOperand } from '../../../values/constant_operand.js';
import type { Evaluator, Frame } from '../../types.js';

const EMPTY: Document = Object.freeze({}) as Document;

/** What a folded argument is evaluated against: no document, no variable. */
const CONSTANT_FRAME: Frame = { root: EMPTY, current: EMPTY, vars: [], runtime: { now: new Date(0), collator: null } };

/** Evaluates `ev` once now when `raw` is foldable (its errors thrown at parse time). */
export function foldCheck(raw: unknown, ev: Evaluator): void {
  if (isFoldableOperand(raw)) ev(CONSTANT_FRAME);
}
