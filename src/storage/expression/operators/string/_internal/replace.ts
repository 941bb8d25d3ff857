/**
 * `$replaceOne` and `$replaceAll` (ExpressionReplaceBase): `{input, find, replacement}` named
 * arguments, all three required. Each must be a string or nullish, checked in that order
 * (mongod 8.2's codes 10503904, 10503901, 10503902) before a nullish one makes null. An empty
 * `find` matches before every code point and at the end.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { docValueToString } from '../../../../values/format.js';
import { isDocument } from '../../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../../types.js';
import { isNullish } from '../../../value.js';
import { stringValue } from './coerce.js';

const ARGUMENT_CODES = { input: 10503904, find: 10503901, replacement: 10503902 } as const;

type Argument = keyof typeof ARGUMENT_CODES;

function check(name: string, argument: Argument, v: unknown): void {
  if (typeof v !== 'string' && !isNullish(v)) {
    throw new CommandError(ARGUMENT_CODES[argument], `${name} requires that '${argument}' be a string, found: ${docValueToString(v)}`);
  }
}

/** `input` with the first occurrence of `find` replaced, or every one. */
export function replaceString(input: string, find: string, replacement: string, all: boolean): string {
  if (find.length === 0) {
    if (!all) return replacement + input;
    let out = replacement;
    for (const ch of input) out += ch + replacement;
    return out;
  }
  if (!all) {
    const at = input.indexOf(find);
    return at < 0 ? input : input.slice(0, at) + replacement + input.slice(at + find.length);
  }
  return input.split(find).join(replacement);
}

/** The replace operator `name`: the first occurrence (`all` false) or every one. */
export function replaceOperator(name: '$replaceOne' | '$replaceAll', all: boolean): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      if (!isDocument(arg)) {
        throw new CommandError(51751, `${name} requires an object as an argument, found: ${bsonTypeOf(arg)}`);
      }
      const parsed: Partial<Record<Argument, Evaluator>> = {};
      for (const key of Object.keys(arg)) {
        if (key === 'input' || key === 'find' || key === 'replacement') parsed[key] = scope.parse(arg[key]);
        else throw new CommandError(51750, `${name} found an unknown argument: ${key}`);
      }
      const { input, find, replacement } = parsed;
      if (input === undefined) throw new CommandError(51749, `${name} requires 'input' to be specified`);
      if (find === undefined) throw new CommandError(51748, `${name} requires 'find' to be specified`);
      if (replacement === undefined) throw new CommandError(51747, `${name} requires 'replacement' to be specified`);
      return (frame) => {
        const i = input(frame);
        const f = find(frame);
        const r = replacement(frame);
        check(name, 'input', i);
        check(name, 'find', f);
        check(name, 'replacement', r);
        if (isNullish(i) || isNullish(f) || isNullish(r)) return null;
        return stringValue(replaceString(stringValue(i as string), stringValue(f as string), stringValue(r as string), all));
      };
    },
  };
}
