/**
 * The one evaluator of a command's `let` (find, aggregate, count, distinct, update, delete,
 * findAndModify, bulkWrite and explain all call it) and of an update statement's constants `c`
 * (`Variables::seedVariablesWithLetParameters` and `PipelineExecutor`'s constants, mongod 8.2).
 *
 * - `let`: each value is an expression evaluated once, before any document is read, against an
 *   empty document, with the variables defined before it in scope. A name must be one a user may
 *   write (FailedToParse with mongod's "Invalid 'let' parameter" context), or one of the system
 *   variables only internal clients may set (4738901); an expression that reads the document
 *   (a field path, `$$ROOT`, `$$CURRENT`) is 4890500, whether or not it would be evaluated.
 * - `c`: names checked as variable reads, values taken as they are; they win over `let`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { userWriteNameProblem, validateNameForUserRead } from './grammar.js';
import { Scope } from './scope.js';
import type { EvaluationRuntime } from './types.js';
import { isDocument } from '../values/paths.js';

/** Variables a command defines for all its expressions: names and values, in definition order. */
export interface CommandVariables {
  readonly names: readonly string[];
  readonly values: readonly unknown[];
}

/** No variables. */
export const NO_VARIABLES: CommandVariables = Object.freeze({ names: Object.freeze([]), values: Object.freeze([]) });

/** The system variables mongod lets an internal client set through `let` (kSystemVarValidators). */
const INTERNAL_CONSTANTS = new Set(['NOW', 'CLUSTER_TIME', 'JS_SCOPE', 'IS_MR', 'USER_ROLES']);

const FIELD_ACCESS =
  'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.';

/** Evaluates a command's `let` document (absent, null or `{}`: no variables). */
export function evaluateCommandLet(letDoc: unknown, runtime: EvaluationRuntime): CommandVariables {
  if (!isDocument(letDoc)) return NO_VARIABLES;
  const names: string[] = [];
  const values: unknown[] = [];
  for (const name of Object.keys(letDoc)) {
    const problem = userWriteNameProblem(name);
    if (problem !== null) {
      if (INTERNAL_CONSTANTS.has(name)) throw new CommandError(4738901, `Attempt to set internal constant: ${name}`);
      throw new CommandError('FailedToParse', `Invalid 'let' parameter :: caused by :: ${problem}`);
    }
    const scope = bindAll(Scope.root(), names);
    const ev = scope.parse(letDoc[name]);
    if (scope.documentRead) throw new CommandError(4890500, FIELD_ACCESS);
    const empty: Document = {};
    // A copy: a `$let` inside the value writes its own slots, past the command's.
    const value = ev({ root: empty, current: empty, vars: values.slice(), runtime });
    names.push(name);
    values.push(value);
  }
  return { names, values };
}

/** The command's variables with an update statement's constants `c` added over them. */
export function withConstants(vars: CommandVariables, constants: Document | undefined | null): CommandVariables {
  if (!isDocument(constants)) return vars;
  const names = [...vars.names];
  const values = [...vars.values];
  for (const name of Object.keys(constants)) {
    validateNameForUserRead(name);
    names.push(name);
    values.push(constants[name]);
  }
  return { names, values };
}

/** `scope` with `names` bound to slots 0, 1, ... in order (a later name shadows an earlier one). */
export function bindAll(scope: Scope, names: readonly string[]): Scope {
  for (const name of names) scope.bind(name);
  return scope;
}
