/**
 * The contracts of the expression language (README.md): what an operator is, what a parsed
 * expression evaluates against, and the parse-time scope through which an operator parses its
 * arguments and defines its variables. Operator files import these types and nothing of the
 * grammar, so that the grammar can find operators through the registry without a cycle.
 */
import type { Document } from '../../bson/library.js';
import type { Collator } from '../values/collator.js';

/** What every expression of one command evaluates with: `$$NOW`, the collation. */
export interface EvaluationRuntime {
  /** `$$NOW`; a compiled pipeline that is run again (a pipeline update) moves it between runs. */
  now: Date;
  /** The command's collation (null: simple): comparisons of strings follow it. */
  readonly collator: Collator | null;
}

/** What an expression is evaluated against: one document, the variables' values, the runtime. */
export interface Frame {
  /** `$$ROOT`. */
  readonly root: Document;
  /** `$$CURRENT`, which field paths (`"$a"`) read: `root` unless a stage moves it ($redact). */
  readonly current: unknown;
  /** The value of every variable, by the slot its definition was given when parsed. */
  readonly vars: unknown[];
  readonly runtime: EvaluationRuntime;
}

/** A parsed expression; returns `MISSING` for an absent value. */
export type Evaluator = (frame: Frame) => unknown;

/**
 * The parse-time scope of an expression: the variables defined around it, and the calls an
 * operator parses its arguments with. Defining a variable gives it a slot of `Frame.vars`.
 */
export interface ParseScope {
  /** Parses an operand (field path, variable, operator object, object literal, array, constant). */
  parse(arg: unknown): Evaluator;
  /** The arguments of an n-ary operator: an array is the list, anything else one argument. */
  parseArguments(arg: unknown): Evaluator[];
  /** The arguments of an operator taking exactly `n` (16020 otherwise). */
  parseFixedArguments(name: string, arg: unknown, n: number): Evaluator[];
  /** A scope nested in this one: what it defines is visible to it alone. */
  child(): ParseScope;
  /** Defines a user variable here (its name checked for a write); returns its slot. */
  define(name: string): number;
  /** `$$CURRENT` as an evaluator (the document the expression reads). */
  current(): Evaluator;
}

/** One expression operator: a file of `operators/<group>/`, one entry of its group's index. */
export interface ExpressionOperator {
  /** The name as written, with its `$` (`'$add'`). */
  readonly name: `$${string}`;
  /** Parses the argument of `{<name>: arg}`; children through `scope`. Throws CommandError. */
  parse(arg: unknown, scope: ParseScope): Evaluator;
}
