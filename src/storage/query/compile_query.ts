/**
 * The filter compiler as commands use it: `compileFilter` with `$expr` wired to the aggregation
 * expression engine (the filter engine itself does not depend on aggregation), and the command
 * `let` parameters that `$expr` can read as `$$name`
 * (mongo/src/mongo/db/pipeline/variables.cpp, `Variables::seedVariablesWithLetParameters`).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
// Through expressions.js, which registers the operators (expression_core alone knows none).
import { parseOperand } from '../aggregation/expressions.js';
import { ROOT_PARSE_STATE, type ParseState } from '../aggregation/expression_core.js';
import { toBool } from '../aggregation/value.js';
import type { Collator } from '../values/collator.js';
import { compileFilter, type Predicate } from './compile_filter.js';

/** A command's `let` parameters, evaluated once before any document is read. */
export interface LetVariables {
  readonly names: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, unknown>;
}

/**
 * Compiles a command's query filter; `nowMs` is `$$NOW` inside `$expr`, `vars` its `let`,
 * `collator` the query's collation (null or absent: simple).
 */
export function compileQuery(filter: Document, nowMs: number, vars?: LetVariables, collator?: Collator | null): Predicate {
  const now = new Date(nowMs);
  const ps: ParseState = vars ? { userVars: vars.names } : ROOT_PARSE_STATE;
  const values = vars?.values;
  return compileFilter(filter, {
    collator,
    compileExpr: (expr) => {
      const ev = parseOperand(expr, ps);
      return (doc) => toBool(ev({ root: doc, now, vars: values, collator }));
    },
  });
}

function validateLetName(name: string): void {
  const fail = (code: number, why: string): never => {
    throw new CommandError(code, `Invalid 'let' parameter :: caused by :: ${why}`);
  };
  if (name.length === 0) fail(16869, 'empty variable names are not allowed');
  const first = name.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || first > 127)) fail(16870, `'${name}' starts with an invalid character for a user variable name`);
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;
    if (!ok) fail(16871, `'${name}' contains an invalid character for a variable name: '${ch}'`);
  }
}

/**
 * Evaluates a command's `let` document: each value is an expression evaluated against no
 * document (a field reference is an error), and may use the variables defined before it.
 * Returns undefined for an absent or empty `let`.
 */
export function evaluateLet(letDoc: Document | undefined, nowMs: number): LetVariables | undefined {
  if (letDoc === undefined || Object.keys(letDoc).length === 0) return undefined;
  const now = new Date(nowMs);
  const names = new Set<string>();
  const values = new Map<string, unknown>();
  for (const [name, expr] of Object.entries(letDoc)) {
    validateLetName(name);
    const ev = parseOperand(expr, { userVars: new Set(names) });
    let touched = false;
    const root = new Proxy({} as Document, {
      get: (t, k) => {
        if (typeof k === 'string') touched = true;
        return Reflect.get(t, k);
      },
      has: () => {
        touched = true;
        return false;
      },
      getOwnPropertyDescriptor: () => {
        touched = true;
        return undefined;
      },
      ownKeys: () => {
        touched = true;
        return [];
      },
    });
    const value = ev({ root, now, vars: values });
    if (touched || value === root) {
      throw new CommandError(
        4890500,
        'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.',
      );
    }
    names.add(name);
    values.set(name, value);
  }
  return { names, values };
}
