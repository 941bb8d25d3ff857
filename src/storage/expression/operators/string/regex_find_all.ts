/**
 * `$regexFindAll` (ExpressionRegexFindAll): every match, left to right and not overlapping, as
 * `$regexFind` gives one; after an empty match the search resumes one code point further. An
 * empty array when the input or regex is null or missing.
 */
import { codePointLength } from './_internal/coerce.js';
import { nextMatch, regexOperator, type RegexMatch } from './_internal/regex.js';

/** `{$regexFindAll: {input: <string>, regex: <string or regex>, options: <string>?}}`. */
export const regexFindAll = regexOperator('$regexFindAll', (input, compiled) => {
  const out: RegexMatch[] = [];
  if (input === null || compiled === null) return out;
  let from = 0;
  let fromCodePoint = 0;
  do {
    const m = nextMatch(compiled, input, from, fromCodePoint);
    if (m === null) break;
    out.push(m.found);
    from = m.end;
    fromCodePoint = m.found.idx + codePointLength(m.found.match);
    if (m.start === m.end) {
      // An empty match: resume one code point further.
      const c = input.charCodeAt(from);
      from += c >= 0xd800 && c <= 0xdbff && from + 1 < input.length ? 2 : 1;
      fromCodePoint++;
    }
  } while (from < input.length);
  return out;
});
