/**
 * The constant operands of expressions: what mongod's optimizer turns into an ExpressionConstant
 * before evaluation (a literal scalar, `$literal`/`$const`, arrays and objects of those). Some
 * operators check such an argument when the expression is parsed (`$setEquals`' 5887502,
 * `$switch`'s 40069), with other codes than the run-time checks of the same rule.
 */
import { isDocument } from './paths.js';

/** What `constantOperand` answers for an operand that is not constant. */
export const NOT_CONSTANT: unique symbol = Symbol('not a constant');

/**
 * The value of an operand that mongod's optimizer turns into a constant (a literal scalar,
 * `$literal`/`$const`, arrays and objects of those), or NOT_CONSTANT.
 */
export function constantOperand(raw: unknown): unknown {
  if (typeof raw === 'string') return raw.charCodeAt(0) === 36 /* $ */ ? NOT_CONSTANT : raw;
  if (Array.isArray(raw)) {
    const out: unknown[] = [];
    for (const x of raw) {
      const v = constantOperand(x);
      if (v === NOT_CONSTANT) return NOT_CONSTANT;
      out.push(v);
    }
    return out;
  }
  if (isDocument(raw)) {
    const keys = Object.keys(raw);
    if (keys.length === 0) return {};
    if (keys[0]!.charCodeAt(0) === 36) {
      return keys.length === 1 && (keys[0] === '$literal' || keys[0] === '$const') ? raw[keys[0]] : NOT_CONSTANT;
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = constantOperand(raw[k]);
      if (v === NOT_CONSTANT) return NOT_CONSTANT;
      out[k] = v;
    }
    return out;
  }
  return raw;
}

/** True when `constantOperand` found a constant. */
export function isConstant(v: unknown): boolean {
  return v !== NOT_CONSTANT;
}
