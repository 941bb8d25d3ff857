/**
 * What the conditional operators share: the optimizer's folding of a constant argument
 * (`isFoldableOperand`), done by evaluating it once when parsed so that its errors surface
 * before any document is read, as mongod's `optimize()` of `$ifNull` and `$switch` does.
 */
import { isFoldableOperand } from '../../../values/constant_operand.js';
import type { Evaluator } from '../../types.js';
import { CONSTANT_FRAME } from '../../value.js';

/** Evaluates `ev` once now when `raw` is foldable (its errors thrown at parse time). */
export function foldCheck(raw: unknown, ev: Evaluator): void {
  if (isFoldableOperand(raw)) ev(CONSTANT_FRAME);
}
