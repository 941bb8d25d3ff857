/**
 * What `$setField` and `$unsetField` share (ExpressionSetField; exec/expression/evaluate*.cpp):
 * `field` must be a constant string (`"a"`, `{$literal: "$a"}`), checked when parsed
 * (4161106-4161108); the result is a copy of `input` with the field replaced in place, appended,
 * or removed for a missing value. `$unsetField` is `$setField` with `value: "$$REMOVE"`, hence
 * its run-time message names `$setField`.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isDocument } from '../../../values/paths.js';
import { isNullish, typeName } from '../../value.js';

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
  // `{}` parses as a constant (an empty object); any other object is an expression.
  if (keys.length === 0) return raw;
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
  if (value.includes('\0')) throw new CommandError(9534700, `${name}: 'field' cannot contain an embedded null byte`);
  return value;
}

/** `$setField` (`unset` false) or `$unsetField` (true). */
export function setFieldOperator(name: '$setField' | '$unsetField', unset: boolean): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      if (!isDocument(arg)) throw new CommandError(4161100, `${name} only supports an object as its argument`);
      let fieldRaw: unknown;
      let hasField = false;
      let input: Evaluator | undefined;
      let value: Evaluator | undefined = unset ? () => MISSING : undefined;
      for (const key of Object.keys(arg)) {
        if (key === 'field') {
          scope.parse(arg[key]);
          fieldRaw = arg[key];
          hasField = true;
        } else if (key === 'input') input = scope.parse(arg[key]);
        else if (key === 'value' && !unset) value = scope.parse(arg[key]);
        else throw new CommandError(4161101, `${name} found an unknown argument: ${key}`);
      }
      if (!hasField) throw new CommandError(4161102, `${name} requires 'field' to be specified`);
      if (value === undefined) throw new CommandError(4161103, `${name} requires 'value' to be specified`);
      if (input === undefined) throw new CommandError(4161109, `${name} requires 'input' to be specified`);
      const field = constantFieldName(name, fieldRaw);
      const inputE = input;
      const valueE = value;
      return (frame) => {
        const from = inputE(frame);
        if (isNullish(from)) return null;
        if (!isDocument(from)) throw new CommandError(4161105, "$setField requires 'input' to evaluate to type Object");
        const v = valueE(frame);
        const out: Document = { ...from };
        if (v === MISSING) delete out[field];
        else Object.defineProperty(out, field, { value: v, writable: true, enumerable: true, configurable: true });
        return out;
      };
    },
  };
}
