/**
 * User variables of write commands: the command-level `let` (expressions evaluated once, before
 * any document is read: Variables::seedVariablesWithLetParameters) and an update statement's
 * constants `c` (values taken as they are; they win over `let`). They are usable in pipeline
 * updates and in `$expr`.
 *
 * The expression engine compiles with no user variables in scope, so variables are bound by
 * substitution before compiling: `"$$x"` becomes `{$literal: <value>}` (`"$$x.a.b"` the value
 * at that path; an absent value `"$$REMOVE"`). `$literal` arguments are left alone.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileExpression } from '../aggregation/expressions.js';
import { evaluatePath } from '../aggregation/expression_core.js';
import { isDocument } from '../values/paths.js';

/** Bound variable values by name (`undefined` = the variable is missing). */
export type Variables = ReadonlyMap<string, unknown>;

/** No variables. */
export const NO_VARIABLES: Variables = new Map();

function isLowerOrNonAscii(code: number): boolean {
  return (code >= 97 && code <= 122) || code > 127;
}

/** `Variables::validateNameForUserWrite` (16866-16868). */
function validateNameForWrite(name: string): void {
  if (name.length === 0) throw new CommandError(16866, 'empty variable names are not allowed');
  if (!isLowerOrNonAscii(name.charCodeAt(0))) {
    throw new CommandError(16867, `'${name}' starts with an invalid character for a user variable name`);
  }
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;
    if (!ok) throw new CommandError(16868, `'${name}' contains an invalid character for a variable name: '${ch}'`);
  }
}

/** True when an expression reads a field of the (absent) current document. */
function readsField(expr: unknown): boolean {
  if (typeof expr === 'string') return expr.charCodeAt(0) === 36 && expr.charCodeAt(1) !== 36;
  if (Array.isArray(expr)) return expr.some(readsField);
  if (isDocument(expr)) {
    for (const key of Object.keys(expr)) {
      if (key === '$literal') continue;
      if (readsField(expr[key])) return true;
    }
  }
  return false;
}

/** Evaluates a command's `let` document into variables (throws mongod's errors). */
export function evaluateLetVariables(letDoc: Document | undefined, now: Date): Variables {
  if (letDoc === undefined || letDoc === null) return NO_VARIABLES;
  const vars = new Map<string, unknown>();
  for (const name of Object.keys(letDoc)) {
    validateNameForWrite(name);
    const expr = bindVariables(letDoc[name], vars);
    if (readsField(expr)) {
      throw new CommandError(
        4890500,
        'Command let Expression tried to access a field, but this is not allowed because command let expressions run before the query examines any documents.',
      );
    }
    vars.set(name, compileExpression(expr, { now })({}));
  }
  return vars;
}

/** Adds a statement's constants `c` over the command's variables. */
export function withConstants(vars: Variables, constants: Document | undefined): Variables {
  if (constants === undefined || constants === null) return vars;
  const out = new Map(vars);
  for (const name of Object.keys(constants)) out.set(name, constants[name]);
  return out;
}

function substitute(ref: string, vars: Variables): unknown {
  const body = ref.slice(2);
  const dot = body.indexOf('.');
  const name = dot < 0 ? body : body.slice(0, dot);
  if (!vars.has(name)) return ref;
  let value = vars.get(name);
  if (dot >= 0 && value !== undefined) {
    const r = evaluatePath(value, body.slice(dot + 1).split('.'));
    value = typeof r === 'symbol' ? undefined : r;
  }
  return value === undefined ? '$$REMOVE' : { $literal: value };
}

/** Replaces variable references in an expression (or pipeline) by their values. */
export function bindVariables(expr: unknown, vars: Variables): unknown {
  if (vars.size === 0) return expr;
  if (typeof expr === 'string') return expr.startsWith('$$') ? substitute(expr, vars) : expr;
  if (Array.isArray(expr)) return expr.map((e) => bindVariables(e, vars));
  if (isDocument(expr)) {
    const out: Document = {};
    for (const key of Object.keys(expr)) out[key] = key === '$literal' ? expr[key] : bindVariables(expr[key], vars);
    return out;
  }
  return expr;
}

/** Binds variables inside the `$expr` clauses of a query filter (top level and $and/$or/$nor). */
export function bindFilterVariables(filter: Document, vars: Variables): Document {
  if (vars.size === 0) return filter;
  const out: Document = {};
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$expr') out[key] = bindVariables(value, vars);
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      out[key] = value.map((sub) => (isDocument(sub) ? bindFilterVariables(sub, vars) : sub));
    } else out[key] = value;
  }
  return out;
}
