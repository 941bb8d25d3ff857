/**
 * `$indexOfCP` (ExpressionIndexOfCP): the code point index of the first occurrence of a
 * substring starting at or after a start and before an end (the occurrence may run past the
 * end, as mongod's does; an empty substring is found at the start when the start is before the
 * end, and in the empty string at 0), or -1; null for a null or missing string.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { codePointLength, stringValue } from './_internal/coerce.js';
import { indexArgument, parseRangedArguments } from './_internal/index_of.js';

function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** The code point index of `token` in `input` between code points `start` and `end`, or -1. */
function findCodePoints(input: string, token: string, start: number, end: number | undefined): number {
  const length = codePointLength(input);
  const stop = end === undefined ? length : Math.min(length, end);
  if (start > length || stop < start) return -1;
  // The empty string holds the empty substring at 0, though its range of starts is empty.
  if (length === 0) return token.length === 0 ? 0 : -1;
  let i = 0;
  for (let cp = 0; cp < start; cp++) i += unitsAt(input, i);
  for (let cp = start; cp < stop; cp++) {
    if (input.startsWith(token, i)) return cp;
    i += unitsAt(input, i);
  }
  return -1;
}

/** `{$indexOfCP: [<string>, <substring>, <start>?, <end>?]}`. */
export const indexOfCP: ExpressionOperator = {
  name: '$indexOfCP',
  parse(arg, scope) {
    const [s, t, startE, endE] = parseRangedArguments('$indexOfCP', arg, scope, 2, 4);
    return (frame) => {
      const input = s!(frame);
      if (isNullish(input)) return null;
      if (typeof input !== 'string') {
        throw new CommandError(40093, `$indexOfCP requires a string as the first argument, found: ${typeName(input)}`);
      }
      const token = t!(frame);
      if (typeof token !== 'string') {
        throw new CommandError(40094, `$indexOfCP requires a string as the second argument, found: ${typeName(token)}`);
      }
      const start = startE === undefined ? 0 : indexArgument(startE(frame), '$indexOfCP', 'starting index');
      const end = endE === undefined ? undefined : indexArgument(endE(frame), '$indexOfCP', 'ending index');
      return findCodePoints(stringValue(input), stringValue(token), start, end);
    };
  },
};
