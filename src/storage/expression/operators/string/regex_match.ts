/** `$regexMatch` (ExpressionRegexMatch): whether the regex matches the input; false for a null or missing input or regex. */
import { regexOperator } from './_internal/regex.js';

/** `{$regexMatch: {input: <string>, regex: <string or regex>, options: <string>?}}`. */
export const regexMatch = regexOperator('$regexMatch', (input, compiled) => {
  if (input === null || compiled === null) return false;
  compiled.regex.lastIndex = 0;
  return compiled.regex.test(input);
});
