/**
 * `$trim`, `$ltrim` and `$rtrim` (ExpressionTrim): `{input, chars}` named arguments, code points
 * removed from one end or both. Without `chars`, mongod's whitespace: U+0000, the ASCII spaces
 * (\t \n \v \f \r and space), U+00A0, U+1680 and U+2000 to U+200A.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { docValueToString } from '../../../../values/format.js';
import { isDocument } from '../../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../../types.js';
import { isNullish, typeName } from '../../../value.js';
import { stringValue } from './coerce.js';

const DEFAULT_WHITESPACE: ReadonlySet<number> = new Set([
  0x00, 0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
]);

/** Which ends a trim removes from. */
export interface TrimEnds {
  readonly left: boolean;
  readonly right: boolean;
}

function codePoints(s: string): Set<number> {
  const out = new Set<number>();
  for (const ch of s) out.add(ch.codePointAt(0)!);
  return out;
}

/** `input` without the code points of `set` at the ends `ends` names. */
export function trimCodePoints(input: string, set: ReadonlySet<number>, ends: TrimEnds): string {
  let from = 0;
  let to = input.length;
  if (ends.left) {
    while (from < to) {
      const cp = input.codePointAt(from)!;
      if (!set.has(cp)) break;
      from += cp > 0xffff ? 2 : 1;
    }
  }
  if (ends.right) {
    while (to > from) {
      const last = input.charCodeAt(to - 1);
      const units = last >= 0xdc00 && last <= 0xdfff && to - 2 >= from && (input.charCodeAt(to - 2) & 0xfc00) === 0xd800 ? 2 : 1;
      if (!set.has(input.codePointAt(to - units)!)) break;
      to -= units;
    }
  }
  return from === 0 && to === input.length ? input : input.slice(from, to);
}

function mustBeString(name: string, what: string, v: unknown): string {
  if (typeof v !== 'string') {
    throw new CommandError(
      what === 'input' ? 50699 : 50700,
      what === 'input'
        ? `${name} requires its input to be a string, got ${docValueToString(v)} (of type ${typeName(v)}) instead.`
        : `${name} requires 'chars' to be a string, got ${docValueToString(v)} (of type ${typeName(v)}) instead.`,
    );
  }
  return stringValue(v);
}

/** The trim operator `name`, removing from `ends`. */
export function trimOperator(name: '$trim' | '$ltrim' | '$rtrim', ends: TrimEnds): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      if (!isDocument(arg)) {
        throw new CommandError(50696, `${name} only supports an object as an argument, found: ${bsonTypeOf(arg)}`);
      }
      let input: Evaluator | undefined;
      let chars: Evaluator | undefined;
      for (const key of Object.keys(arg)) {
        if (key === 'input') input = scope.parse(arg[key]);
        else if (key === 'chars') chars = scope.parse(arg[key]);
        else throw new CommandError(50694, `${name} found an unknown argument: ${key}`);
      }
      if (input === undefined) throw new CommandError(50695, `${name} requires an 'input' field`);
      const inputE = input;
      if (chars === undefined) {
        return (frame) => {
          const v = inputE(frame);
          if (isNullish(v)) return null;
          return trimCodePoints(mustBeString(name, 'input', v), DEFAULT_WHITESPACE, ends);
        };
      }
      const charsE = chars;
      // The set of the last `chars` seen (a constant one is built once).
      let lastChars: string | null = null;
      let lastSet: ReadonlySet<number> = DEFAULT_WHITESPACE;
      return (frame) => {
        const v = inputE(frame);
        if (isNullish(v)) return null;
        const s = mustBeString(name, 'input', v);
        const c = charsE(frame);
        if (isNullish(c)) return null;
        const text = mustBeString(name, 'chars', c);
        if (text !== lastChars) {
          lastChars = text;
          lastSet = codePoints(text);
        }
        return trimCodePoints(s, lastSet, ends);
      };
    },
  };
}
