/**
 * `$regexFind` (ExpressionRegexFind): the first match, `{match, idx, captures}` (`idx` in code
 * points, a capture that took no part null); null when nothing matches or the input or regex is
 * null or missing.
 */
import { nextMatch, regexOperator } from './_internal/regex.js';

/** `{$regexFind: {input: <string>, regex: <string or regex>, options: <string>?}}`. */
export const regexFind = regexOperator('$regexFind', (input, compiled) => {
  if (input === null || compiled === null) return null;
  const m = nextMatch(compiled, input, 0, 0);
  return m === null ? null : m.found;
});
