/**
 * The grammar of expressions (mongo/src/mongo/db/pipeline/expression.cpp, `Expression::
 * parseOperand` and friends): an operand is a field path (`"$a.b"`), a variable (`"$$ROOT"`,
 * `"$$x.a"`), an operator object (`{$op: args}`), an object literal of expressions, an array of
 * expressions or a constant. Operators are found in the registry; variables in the scope, where
 * their definitions gave them a slot of the frame.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../values/format.js';
import { MISSING } from '../values/missing.js';
import { stringValue } from '../values/string_value.js';
import { assertValidFieldName, parseFieldPath } from './field_path.js';
import { operatorNamed, isUnsupportedExpression } from './registry.js';
import type { Evaluator, ParseScope } from './types.js';
import { fieldOf } from './value.js';
import { isDocument } from '../values/paths.js';

/** What the grammar asks of a scope besides what operators do (scope.ts implements it). */
export interface GrammarScope extends ParseScope {
  /** The slot of the user variable `name` visible here, or undefined. */
  lookup(name: string): number | undefined;
  /** Notes that the expression reads the document (a field path, `$$ROOT`, `$$CURRENT`). */
  readsDocument(): void;
}

/** The builtin variables (`Variables::kBuiltinVarNameToId`) and what each evaluates to. */
const BUILTIN_VARIABLES: ReadonlyMap<string, Evaluator> = new Map<string, Evaluator>([
  ['ROOT', (frame) => frame.root],
  ['REMOVE', () => MISSING],
  ['NOW', (frame) => frame.runtime.now],

  ['JS_SCOPE', unavailable('JS_SCOPE')],
  ['IS_MR', unavailable('IS_MR')],
  ['SEARCH_META', () => MISSING],
  ['USER_ROLES', () => []],
]);

/** The builtin variables that read the document. */
const DOCUMENT_VARIABLES = new Set(['ROOT', 'CURRENT']);

/** A builtin variable this server has no value for (a standalone's `$$CLUSTER_TIME`): 51144 when read. */
function unavailable(name: string): Evaluator {
  return () => {
    throw new CommandError(51144, `Builtin variable '$$${name}' is not available`);
  };
}

/** `Expression::parseOperand`: any value that may appear where an expression is expected. */
export function parseOperand(v: unknown, scope: GrammarScope): Evaluator {
  if (typeof v === 'string') {
    if (v.charCodeAt(0) === 36 /* $ */) return parseFieldPathExpression(v, scope);
    stringValue(v); // a constant of 16MB or more is refused (16493), as mongod makes it a Value
    return () => v;
  }
  if (Array.isArray(v)) {
    const items = v.map((x) => parseOperand(x, scope));
    return (frame) =>
      items.map((item) => {
        const r = item(frame);
        return r === MISSING ? null : r;
      });
  }
  if (isDocument(v)) return parseObjectExpression(v, scope);
  return () => v;
}

/** `Expression::parseObject`: `{$op: ...}` or an object literal of expressions. */
export function parseObjectExpression(obj: Document, scope: GrammarScope): Evaluator {
  const keys = Object.keys(obj);
  if (keys.length === 0) return () => ({});
  if (keys[0]!.charCodeAt(0) === 36) return parseOperatorExpression(obj, scope);
  const fields: Array<[string, Evaluator]> = [];
  for (const key of keys) {
    assertValidFieldName(key);
    fields.push([key, parseOperand(obj[key], scope)]);
  }
  return (frame) => {
    const out: Document = {};
    for (const [key, ev] of fields) {
      const r = ev(frame);
      if (r !== MISSING) out[key] = r;
    }
    return out;
  };
}

/** `Expression::parseExpression`: an object whose only field names an operator. */
export function parseOperatorExpression(obj: Document, scope: GrammarScope): Evaluator {
  const keys = Object.keys(obj);
  if (keys.length !== 1) {
    throw new CommandError(15983, `An object representing an expression must have exactly one field: ${formatValue(obj)}`);
  }
  const name = keys[0]!;
  const operator = operatorNamed(name);
  if (operator === undefined) {
    if (isUnsupportedExpression(name)) throw new CommandError('NotImplemented', `Expression ${name} is not supported by Mayfly yet`);
    throw new CommandError('InvalidPipelineOperator', `Unrecognized expression '${name}'`);
  }
  return operator.parse(obj[name], scope);
}

/** The arguments of an n-ary operator: an array is a list, anything else one argument. */
export function parseArguments(arg: unknown, scope: GrammarScope): Evaluator[] {
  if (Array.isArray(arg)) return arg.map((x) => parseOperand(x, scope));
  return [parseOperand(arg, scope)];
}

/** The arguments of an operator that takes exactly `n` (code 16020 otherwise). */
export function parseFixedArguments(name: string, arg: unknown, scope: GrammarScope, n: number): Evaluator[] {
  const args = parseArguments(arg, scope);
  if (args.length !== n) {
    throw new CommandError(16020, `Expression ${name} takes exactly ${n} arguments. ${args.length} were passed in.`);
  }
  return args;
}

/** `ExpressionFieldPath::parse`: `$a.b`, `$$ROOT`, `$$CURRENT.a`, `$$NOW`, `$$x.a`. */
export function parseFieldPathExpression(raw: string, scope: GrammarScope): Evaluator {
  if (raw.length < 2) throw new CommandError(16872, "'$' by itself is not a valid FieldPath");
  if (raw.charCodeAt(1) !== 36) {
    const parts = parseFieldPath(raw.slice(1));
    return pathFrom(currentOf(scope), parts);
  }
  const body = raw.slice(2);
  const dot = body.indexOf('.');
  const name = dot < 0 ? body : body.slice(0, dot);
  // mongod checks the name and looks the variable up, then builds the FieldPath of the whole.
  const variable = variableNamed(name, scope);
  const rest = dot < 0 ? [] : parseFieldPath(body).slice(1);
  return pathFrom(variable, rest);
}

/** `$$CURRENT` in `scope`: a user variable named CURRENT when one is defined, else the frame's. */
export function currentOf(scope: GrammarScope): Evaluator {
  const slot = scope.lookup('CURRENT');
  if (slot !== undefined) return (frame) => frame.vars[slot];
  scope.readsDocument();
  return (frame) => frame.current;
}

/** The variable `name` (`VariablesParseState::getVariable`; names checked as a read would). */
function variableNamed(name: string, scope: GrammarScope): Evaluator {
  const slot = scope.lookup(name);
  if (slot !== undefined) return (frame) => frame.vars[slot];
  if (name === 'CURRENT') return currentOf(scope);
  if (name === 'CLUSTER_TIME') {
    // Standalone: no logical clock. mongod refuses the reference once the command is parsed
    // (ExpressionContext::initializeReferencedSystemVariables), before any document is read.
    throw new CommandError(10071200, "Builtin variable '$$CLUSTER_TIME' is not available");
  }
  const builtin = BUILTIN_VARIABLES.get(name);
  if (builtin !== undefined) {
    if (DOCUMENT_VARIABLES.has(name)) scope.readsDocument();
    return builtin;
  }
  validateNameForUserRead(name);
  throw new CommandError(17276, `Use of undefined variable: ${name}`);
}

/** The value at `parts` below what `base` evaluates to (documents, then arrays of documents). */
function pathFrom(base: Evaluator, parts: readonly string[]): Evaluator {
  if (parts.length === 0) return base;
  if (parts.length === 1) {
    const name = parts[0]!;
    return (frame) => {
      const v = base(frame);
      if (isDocument(v)) return fieldOf(v, name);
      if (Array.isArray(v)) return evaluatePathInArray(v, parts, 0);
      return MISSING;
    };
  }
  return (frame) => evaluatePath(base(frame), parts);
}

/** Follows `parts` from a value (documents, then arrays of documents), as field paths do. */
export function evaluatePath(base: unknown, parts: readonly string[]): unknown {
  if (isDocument(base)) return evaluatePathInDocument(base, parts, 0);
  if (Array.isArray(base)) return evaluatePathInArray(base, parts, 0);
  return MISSING;
}

/** `ExpressionFieldPath::evaluatePath`. */
export function evaluatePathInDocument(doc: Document, parts: readonly string[], i: number): unknown {
  const v = fieldOf(doc, parts[i]!);
  if (i === parts.length - 1) return v;
  if (isDocument(v)) return evaluatePathInDocument(v, parts, i + 1);
  if (Array.isArray(v)) return evaluatePathInArray(v, parts, i + 1);
  return MISSING;
}

/** `ExpressionFieldPath::evaluatePathArray`: documents only, missing results dropped. */
function evaluatePathInArray(arr: readonly unknown[], parts: readonly string[], i: number): unknown[] {
  const out: unknown[] = [];
  for (const el of arr) {
    if (!isDocument(el)) continue;
    const r = evaluatePathInDocument(el, parts, i);
    if (r !== MISSING) out.push(r);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Variable names (variable_validation.cpp, mongod 8.2: every failure is FailedToParse).

function isLowerAsciiOrNonAscii(code: number): boolean {
  return (code >= 97 && code <= 122) || code > 127;
}

function isNameCharacter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code > 127;
}

/** Why `name` cannot be written (defined) as a user variable, or null (`isValidNameForUserWrite`). */
export function userWriteNameProblem(name: string): string | null {
  if (name === 'CURRENT') return null;
  return nameProblem(name, isLowerAsciiOrNonAscii);
}

/** `validateNameForUserWrite`: `$let`'s and `$lookup`'s variable names. */
export function validateNameForUserWrite(name: string): void {
  const problem = userWriteNameProblem(name);
  if (problem !== null) throw new CommandError('FailedToParse', problem);
}

/** `validateNameForUserRead`: the name of a variable read (`$$name`), an update's constant. */
export function validateNameForUserRead(name: string): void {
  const problem = nameProblem(name, (c) => isLowerAsciiOrNonAscii(c) || (c >= 65 && c <= 90));
  if (problem !== null) throw new CommandError('FailedToParse', problem);
}

function nameProblem(name: string, validFirst: (code: number) => boolean): string | null {
  if (name.length === 0) return 'empty variable names are not allowed';
  // The checks are on UTF-8 bytes: a non-ASCII character is valid anywhere.
  if (!validFirst(name.charCodeAt(0))) return `'${name}' starts with an invalid character for a user variable name`;
  for (const ch of name.slice(1)) {
    if (!isNameCharacter(ch.charCodeAt(0))) return `'${name}' contains an invalid character for a variable name: '${ch}'`;
  }
  return null;
}
