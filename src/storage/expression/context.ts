/**
 * The entry point of the expression language for everything that compiles expressions (the
 * query's `$expr`, projections, the pipeline stages, pipeline updates, validators): one
 * `ExpressionContext` per command, holding the root scope (with the command's variables
 * defined), the values of every variable, and the runtime (`$$NOW`, the collation).
 */
import type { Document } from '../../bson/library.js';
import type { Collator } from '../values/collator.js';
import { NO_VARIABLES, bindAll, type CommandVariables } from './let.js';
import { Scope } from './scope.js';
import type { EvaluationRuntime, Evaluator, Frame } from './types.js';
import { externalValue, toBool } from './value.js';

/** Options of an `ExpressionContext`. */
export interface ExpressionContextOptions {
  /** `$$NOW` (a runner may move it: `runtime.now`). */
  readonly now: Date;
  /** The command's collation (absent or null: simple). */
  readonly collator?: Collator | null;
  /** The command's variables (`evaluateCommandLet`, `withConstants`). */
  readonly variables?: CommandVariables;
}

/** What the expressions of one command are parsed in and evaluated with. */
export class ExpressionContext {
  /** The root scope: the command's variables are defined in it. */
  readonly scope: Scope;
  readonly runtime: EvaluationRuntime;
  /** The values of every variable of the scope tree, by slot (the command's first). */
  readonly vars: unknown[];

  constructor(options: ExpressionContextOptions) {
    const variables = options.variables ?? NO_VARIABLES;
    this.scope = bindAll(Scope.root(), variables.names);
    this.vars = [...variables.values];
    this.runtime = { now: options.now, collator: options.collator ?? null };
  }

  /** The frame that evaluates against `doc` (`$$ROOT` and `$$CURRENT`). */
  frame(doc: Document): Frame {
    return { root: doc, current: doc, vars: this.vars, runtime: this.runtime };
  }

  /** Parses an expression in the root scope. */
  parse(expr: unknown): Evaluator {
    return this.scope.parse(expr);
  }

  /** Compiles an expression into a function of a document; an absent value is `undefined`. */
  compile(expr: unknown): (doc: Document) => unknown {
    const ev = this.parse(expr);
    return (doc) => externalValue(ev(this.frame(doc)));
  }

  /** Compiles an expression into a document predicate (aggregation truthiness: `$expr`). */
  predicate(expr: unknown): (doc: Document) => boolean {
    const ev = this.parse(expr);
    return (doc) => toBool(ev(this.frame(doc)));
  }
}
