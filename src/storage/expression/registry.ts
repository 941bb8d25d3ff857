/**
 * The table of expression operators, built from the group indexes (`operators/<group>/index.ts`):
 * an operator by name, and the names mongod knows that Mayfly does not implement yet, derived
 * as catalogue − registry (they answer 238 NotImplemented). Nothing registers itself.
 */
import { EXPRESSION_CATALOGUE } from './catalogue.js';
import { ACCUMULATOR } from './operators/accumulator/index.js';
import { ARITHMETIC } from './operators/arithmetic/index.js';
import { ARRAY } from './operators/array/index.js';
import { BITWISE } from './operators/bitwise/index.js';
import { BOOLEAN } from './operators/boolean/index.js';
import { COMPARISON } from './operators/comparison/index.js';
import { CONDITIONAL } from './operators/conditional/index.js';
import { DATE } from './operators/date/index.js';
import { LITERAL } from './operators/literal/index.js';
import { MISC } from './operators/misc/index.js';
import { OBJECT } from './operators/object/index.js';
import { SET } from './operators/set/index.js';
import { STRING } from './operators/string/index.js';
import { TRIGONOMETRY } from './operators/trigonometry/index.js';
import { TYPE } from './operators/type/index.js';
import { VARIABLE } from './operators/variable/index.js';
import type { ExpressionOperator } from './types.js';

/** The operator groups, each its folder's sorted index. */
export const EXPRESSION_GROUPS: Readonly<Record<string, readonly ExpressionOperator[]>> = {
  accumulator: ACCUMULATOR,
  arithmetic: ARITHMETIC,
  array: ARRAY,
  bitwise: BITWISE,
  boolean: BOOLEAN,
  comparison: COMPARISON,
  conditional: CONDITIONAL,
  date: DATE,
  literal: LITERAL,
  misc: MISC,
  object: OBJECT,
  set: SET,
  string: STRING,
  trigonometry: TRIGONOMETRY,
  type: TYPE,
  variable: VARIABLE,
};

const BY_NAME: ReadonlyMap<string, ExpressionOperator> = (() => {
  const map = new Map<string, ExpressionOperator>();
  const known = new Set(EXPRESSION_CATALOGUE);
  for (const [group, operators] of Object.entries(EXPRESSION_GROUPS)) {
    for (const op of operators) {
      if (map.has(op.name)) throw new Error(`expression ${op.name} registered twice (${group})`);
      if (!known.has(op.name)) throw new Error(`expression ${op.name} (${group}) is not in the catalogue`);
      map.set(op.name, op);
    }
  }
  return map;
})();

/** The operator called `name`, if Mayfly implements it. */
export function operatorNamed(name: string): ExpressionOperator | undefined {
  return BY_NAME.get(name);
}

/** The expression names mongod 8.2 has that Mayfly does not implement yet. */
export const UNSUPPORTED_EXPRESSIONS: ReadonlySet<string> = new Set(EXPRESSION_CATALOGUE.filter((name) => !BY_NAME.has(name)));

/** True when mongod knows `name` but Mayfly does not implement it (238). */
export function isUnsupportedExpression(name: string): boolean {
  return UNSUPPORTED_EXPRESSIONS.has(name);
}

/** True when `name` is an expression mongod knows, implemented or not. */
export function isKnownExpression(name: string): boolean {
  return BY_NAME.has(name) || UNSUPPORTED_EXPRESSIONS.has(name);
}
