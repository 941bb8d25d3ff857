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

/** Operators mongod's optimizer never folds: they read the document implicitly or vary per call. */
const NOT_FOLDABLE = new Set(['$rand', '$function', '$accumulator', '$meta', '$createObjectId', '$getField']);

/**
 * True when mongod's optimizer would fold `raw` into a constant: no field path, no variable, and
 * only operators that depend on nothing but their arguments. Folding evaluates it once before
 * any document is read, so its errors ({$divide: [1, 0]}) surface when the command is parsed.
 */
export function isFoldableOperand(raw: unknown): boolean {
  if (typeof raw === 'string') return raw.charCodeAt(0) !== 36 /* $ */;
  if (Array.isArray(raw)) return raw.every(isFoldableOperand);
  if (!isDocument(raw)) return true;
  const keys = Object.keys(raw);
  if (keys.length === 1 && keys[0]!.charCodeAt(0) === 36) {
    const name = keys[0]!;
    if (name === '$literal' || name === '$const') return true;
    if (NOT_FOLDABLE.has(name)) return false;
    return isFoldableOperand(raw[name]);
  }
  for (const key of keys) if (!isFoldableOperand(raw[key])) return false;
  return true;
}
