/**
 * `$let` (ExpressionLet): binds variables for one expression. Every `vars` value is parsed in
 * the enclosing scope (so a variable of the same `$let` is not visible to another one's value),
 * then the names are checked and defined in a child scope, where `in` is parsed. Evaluation
 * sets the variables in order, then evaluates `in`.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isDocument } from '../../../values/paths.js';

/** `{$let: {vars: {<name>: <expression>, ...}, in: <expression>}}`. */
export const let_: ExpressionOperator = {
  name: '$let',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(16874, '$let only supports an object as its argument');
    let vars: unknown;
    let inExpr: unknown;
    let hasVars = false;
    let hasIn = false;
    for (const key of Object.keys(arg)) {
      if (key === 'vars') {
        vars = arg[key];
        hasVars = true;
      } else if (key === 'in') {
        inExpr = arg[key];
        hasIn = true;
      } else throw new CommandError(16875, `Unrecognized parameter to $let: ${key}`);
    }
    if (!hasVars) throw new CommandError(16876, "Missing 'vars' parameter to $let");
    if (!hasIn) throw new CommandError(16877, "Missing 'in' parameter to $let");
    // BSONElement::embeddedObjectUserCheck: an object or an array (whose names are "0", "1", ...).
    const t = bsonTypeOf(vars);
    if (t !== 'object' && t !== 'array') throw new CommandError(10065, 'invalid parameter: expected an object (vars)');
    const entries: Array<[string, unknown]> = Array.isArray(vars) ? vars.map((v, i) => [String(i), v]) : Object.entries(vars as object);
    const values = entries.map(([, expr]) => scope.parse(expr));
    const inner = scope.child();
    const slots = entries.map(([name]) => inner.define(name));
    const body = inner.parse(inExpr);
    if (slots.length === 0) return body;
    return (frame) => {
      for (let i = 0; i < slots.length; i++) frame.vars[slots[i]!] = (values[i] as Evaluator)(frame);
      return body(frame);
    };
  },
};
