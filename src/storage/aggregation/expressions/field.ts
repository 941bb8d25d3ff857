/**
 * Field access by literal name: `$getField`, `$setField` and its alias `$unsetField`
 * (mongo/src/mongo/db/pipeline/expression.cpp, `ExpressionGetField`/`ExpressionSetField`, and
 * exec/expression/evaluate*.cpp). The name is taken as it is, never as a dotted path, so these
 * reach fields whose names contain `.` or start with `$`.
 *
 * mongod 8.2: `$getField`'s `field` may be any expression (checked to be a string per document,
 * 3041704); `$setField`/`$unsetField` need a constant string (`"a"`, `{$literal: "$a"}`), checked
 * when parsed (4161106-4161108).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { parseOperand, type Evaluator, type OperatorParser, type ParseState } from '../expression_core.js';
import { MISSING, fieldOf, isDocument, isNullish, typeName } from '../value.js';

/** `"$$CURRENT"`: what the short form of `$getField` reads from. */
const currentDocument: Evaluator = (ctx) => ctx.root;

/**
 * `{$getField: "name" | <expression> | {field, input}}`: a document whose first field starts
 * with `$` is the expression form (`{$literal: "$a"}`), read from `$$CURRENT`.
 */
function parseGetField(arg: unknown, ps: ParseState): Evaluator {
  let field: Evaluator | undefined;
  let input: Evaluator | undefined;
  if (isDocument(arg)) {
    for (const key of Object.keys(arg)) {
      if (field === undefined && input === undefined && key.charCodeAt(0) === 36 /* $ */) {
        field = parseOperand(arg, ps);
        input = currentDocument;
        break;
      }
      if (key === 'field') field = parseOperand(arg[key], ps);
      else if (key === 'input') input = parseOperand(arg[key], ps);
      else throw new CommandError(3041701, `$getField found an unknown argument: ${key}`);
    }
  } else {
    field = parseOperand(arg, ps);
    input = currentDocument;
  }
  if (field === undefined) throw new CommandError(3041702, "$getField requires 'field' to be specified");
  if (input === undefined) throw new CommandError(3041703, "$getField requires 'input' to be specified");
  const fieldE = field;
  const inputE = input;
  return (ctx) => {
    const name = fieldE(ctx);
    if (typeof name !== 'string') {
      throw new CommandError(3041704, `$getField requires 'field' to evaluate to type String, but got ${typeName(name)}`);
    }
    const from = inputE(ctx);
    if (from === MISSING) return MISSING;
    if (isNullish(from)) return null;
    if (!isDocument(from)) return MISSING;
    return fieldOf(from, name);
  };
}

/** `ExpressionFieldPath::getFieldPath().fullPathWithPrefix()`: `"$a.b"` → `$CURRENT.a.b`. */
function fullPathWithPrefix(ref: string): string {
  return ref.startsWith('$$') ? `$${ref.slice(2)}` : `$CURRENT.${ref.slice(1)}`;
}

const NOT_CONSTANT: unique symbol = Symbol('not a constant');

/** The value of a parsed-as-constant operand (`ExpressionConstant`), or NOT_CONSTANT. */
function constantOperand(raw: unknown): unknown {
  if (Array.isArray(raw)) return NOT_CONSTANT;
  if (!isDocument(raw)) return raw;
  const keys = Object.keys(raw);
  return keys.length === 1 && (keys[0] === '$literal' || keys[0] === '$const') ? raw[keys[0]] : NOT_CONSTANT;
}

/** The constant string a `$setField`/`$unsetField` `field` argument must be. */
function constantFieldName(name: string, raw: unknown): string {
  if (typeof raw === 'string' && raw.charCodeAt(0) === 36 /* $ */) {
    const path = fullPathWithPrefix(raw);
    throw new CommandError(
      4161108,
      `'${path}' is a field path reference which is not allowed in this context. Did you mean {$literal: '${path}'}?`,
    );
  }
  const value = constantOperand(raw);
  if (value === NOT_CONSTANT) {
    throw new CommandError(4161106, `${name} requires 'field' to evaluate to a constant, but got a non-constant argument`);
  }
  if (typeof value !== 'string') {
    throw new CommandError(4161107, `${name} requires 'field' to evaluate to type String, but got ${typeName(value)}`);
  }
  return value;
}

/**
 * `{$setField: {field, input, value}}` and `{$unsetField: {field, input}}` (which is `$setField`
 * with `value: "$$REMOVE"`, hence its run-time message names `$setField`). The result is a copy
 * of `input` with the field replaced in place, appended, or removed for a missing value.
 */
function parseSetField(unset: boolean): OperatorParser {
  return (arg, ps, name) => {
    if (!isDocument(arg)) throw new CommandError(4161100, `${name} only supports an object as its argument`);
    let fieldRaw: unknown;
    let hasField = false;
    let input: Evaluator | undefined;
    let value: Evaluator | undefined = unset ? () => MISSING : undefined;
    for (const key of Object.keys(arg)) {
      if (key === 'field') {
        parseOperand(arg[key], ps);
        fieldRaw = arg[key];
        hasField = true;
      } else if (key === 'input') input = parseOperand(arg[key], ps);
      else if (key === 'value' && !unset) value = parseOperand(arg[key], ps);
      else throw new CommandError(4161101, `${name} found an unknown argument: ${key}`);
    }
    if (!hasField) throw new CommandError(4161102, `${name} requires 'field' to be specified`);
    if (value === undefined) throw new CommandError(4161103, `${name} requires 'value' to be specified`);
    if (input === undefined) throw new CommandError(4161109, `${name} requires 'input' to be specified`);
    const field = constantFieldName(name, fieldRaw);
    const inputE = input;
    const valueE = value;
    return (ctx) => {
      const from = inputE(ctx);
      if (isNullish(from)) return null;
      if (!isDocument(from)) throw new CommandError(4161105, "$setField requires 'input' to evaluate to type Object");
      const v = valueE(ctx);
      const out: Document = { ...from };
      if (v === MISSING) delete out[field];
      else Object.defineProperty(out, field, { value: v, writable: true, enumerable: true, configurable: true });
      return out;
    };
  };
}

/** `$getField`, `$setField`, `$unsetField`. */
export const FIELD_OPERATORS: Readonly<Record<string, OperatorParser>> = {
  $getField: (arg, ps) => parseGetField(arg, ps),
  $setField: parseSetField(false),
  $unsetField: parseSetField(true),
};
