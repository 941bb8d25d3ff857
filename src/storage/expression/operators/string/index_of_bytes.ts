/**
 * `$indexOfBytes` (ExpressionIndexOfBytes): the UTF-8 byte offset of the first occurrence of a
 * substring at or after a start and ending before an end, or -1; null for a null or missing
 * string. The substring must be a string whatever the string is.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { stringValue } from './_internal/coerce.js';
import { indexArgument, parseRangedArguments } from './_internal/index_of.js';

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The byte offset of `token` in `input` between byte offsets `start` and `end`, or -1. */
function findBytes(input: string, token: string, start: number, end: number | undefined): number {
  if (isAscii(input)) {
    const stop = end === undefined ? input.length : Math.min(input.length, end);
    if (start > input.length || stop < start) return -1;
    const at = input.indexOf(token, start);
    return at < 0 || at + token.length > stop ? -1 : at;
  }
  const bytes = Buffer.from(input, 'utf8');
  const stop = end === undefined ? bytes.length : Math.min(bytes.length, end);
  if (start > bytes.length || stop < start) return -1;
  if (token.length === 0) return start;
  return bytes.subarray(0, stop).indexOf(Buffer.from(token, 'utf8'), start);
}

/** `{$indexOfBytes: [<string>, <substring>, <start>?, <end>?]}`. */
export const indexOfBytes: ExpressionOperator = {
  name: '$indexOfBytes',
  parse(arg, scope) {
    const [s, t, startE, endE] = parseRangedArguments('$indexOfBytes', arg, scope, 2, 4);
    return (frame) => {
      const input = s!(frame);
      if (isNullish(input)) return null;
      if (typeof input !== 'string') {
        throw new CommandError(40091, `$indexOfBytes requires a string as the first argument, found: ${typeName(input)}`);
      }
      const token = t!(frame);
      if (typeof token !== 'string') {
        throw new CommandError(40092, `$indexOfBytes requires a string as the second argument, found: ${typeName(token)}`);
      }
      const start = startE === undefined ? 0 : indexArgument(startE(frame), '$indexOfBytes', 'starting index');
      const end = endE === undefined ? undefined : indexArgument(endE(frame), '$indexOfBytes', 'ending index');
      return findBytes(stringValue(input), stringValue(token), start, end);
    };
  },
};
