/**
 * What `$regexFind`, `$regexFindAll` and `$regexMatch` share (ExpressionRegex): the named
 * arguments `{input, regex, options}`, the checks of the regex and its options (51105 to 51111),
 * the compilation (once, at parse time, when regex and options are constants, as mongod's
 * `optimize` does), and the search from a position with the match's code point index and its
 * captures (null for a group that took no part).
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { isDocument } from '../../../../values/paths.js';
import type { Evaluator, ExpressionOperator, Frame } from '../../../types.js';
import { isNullish } from '../../../value.js';
import { codePointLength, stringValue } from './coerce.js';
import { PcreError, translatePcre, type TranslatedRegex } from './pcre.js';

/** mongod's limit on a pattern's length in bytes (PCRE2's MAX_PATTERN_SIZE as mongod sets it). */
const MAX_PATTERN_BYTES = 16 * 1024;

/** The regex operators. */
export type RegexOperatorName = '$regexFind' | '$regexFindAll' | '$regexMatch';

/** A compiled regex, or null when the regex is null or missing. */
type Compiled = TranslatedRegex | null;

/** One match: what `$regexFind` returns. */
export interface RegexMatch {
  match: string;
  idx: number;
  captures: unknown[];
}

/** `_extractRegexAndOptions` and `_compile`: the compiled regex of evaluated `regex` and `options`. */
export function compileRegexArguments(name: RegexOperatorName, regex: unknown, options: unknown, cache?: CompileCache): Compiled {
  const regexType = bsonTypeOf(regex);
  if (!isNullish(regex) && regexType !== 'string' && regexType !== 'regex') {
    throw new CommandError(51105, `${name} needs 'regex' to be of type string or regex`);
  }
  if (!isNullish(options) && typeof options !== 'string') {
    throw new CommandError(51106, `${name} needs 'options' to be of type string`);
  }
  let pattern: string | null = null;
  let flags: string | null = null;
  if (regexType === 'regex') {
    const r = regex as { pattern?: string; options?: string; source?: string; flags?: string };
    pattern = r.pattern ?? r.source ?? '';
    const regexFlags = r.options ?? r.flags ?? '';
    if (!isNullish(options) && regexFlags !== '') {
      throw new CommandError(51107, `${name}: found regex option(s) specified in both 'regex' and 'option' fields`);
    }
    if (regexFlags !== '') flags = regexFlags;
  } else if (regexType === 'string') {
    pattern = regex as string;
  }
  if (!isNullish(options)) flags = options as string;
  if (pattern !== null && pattern.includes('\0')) {
    throw new CommandError(51109, `${name}: regular expression cannot contain an embedded null byte`);
  }
  if (flags !== null && flags.includes('\0')) {
    throw new CommandError(51110, `${name}: regular expression options cannot contain an embedded null byte`);
  }
  // No pattern, nothing compiled: the options are not read (mongod 8.2).
  if (pattern === null) return null;
  for (const f of flags ?? '') {
    if (f !== 'i' && f !== 'm' && f !== 's' && f !== 'x' && f !== 'u') {
      throw new CommandError(51108, `${name} invalid flag in regex options: ${f}`);
    }
  }
  const key = `${flags ?? ''}\0${pattern}`;
  if (cache !== undefined && cache.key === key) return cache.compiled;
  const compiled = compilePattern(name, pattern, flags ?? '');
  if (cache !== undefined) {
    cache.key = key;
    cache.compiled = compiled;
  }
  return compiled;
}

/** The last regex a non-constant regex argument compiled to (documents often share one). */
interface CompileCache {
  key: string | null;
  compiled: TranslatedRegex | null;
}

function compilePattern(name: RegexOperatorName, pattern: string, flags: string): TranslatedRegex {
  if (Buffer.byteLength(pattern, 'utf8') > MAX_PATTERN_BYTES) {
    throw new CommandError(51111, `Invalid Regex in ${name}: regular expression is too large`);
  }
  try {
    return translatePcre(pattern, flags);
  } catch (err) {
    if (err instanceof PcreError) throw new CommandError(51111, `Invalid Regex in ${name}: ${err.message}`);
    throw err;
  }
}

/** `_extractInputField`: the input string, or null for null or missing. */
function inputOf(name: RegexOperatorName, v: unknown): string | null {
  if (isNullish(v)) return null;
  if (typeof v !== 'string') throw new CommandError(51104, `${name} needs 'input' to be of type string`);
  return stringValue(v);
}

/**
 * The first match of `compiled` in `input` at or after UTF-16 offset `from`, whose code point
 * index is `fromCodePoint` plus the code points between; null when there is none.
 */
export function nextMatch(compiled: TranslatedRegex, input: string, from: number, fromCodePoint: number): { found: RegexMatch; start: number; end: number } | null {
  const re = compiled.regex;
  re.lastIndex = from;
  const m = re.exec(input);
  if (m === null) return null;
  const start = m.index;
  const captures: unknown[] = [];
  for (const g of compiled.captureGroups) {
    const c = m[g];
    captures.push(c === undefined ? null : c);
  }
  const idx = fromCodePoint + codePointLength(input.slice(from, start));
  return { found: { match: m[0], idx, captures }, start, end: start + m[0].length };
}

/** The evaluator of one regex operator, given its input and its compiled regex. */
export type RegexEvaluator = (input: string | null, compiled: Compiled) => unknown;

function isConstant(arg: unknown): boolean {
  if (typeof arg === 'string') return arg.charCodeAt(0) !== 36;
  if (isDocument(arg)) {
    const keys = Object.keys(arg);
    return keys.length === 1 && keys[0] === '$literal';
  }
  return !Array.isArray(arg);
}

function constantValue(arg: unknown): unknown {
  return isDocument(arg) ? arg.$literal : arg;
}

/** The regex operator `name`, answering with `run`. */
export function regexOperator(name: RegexOperatorName, run: RegexEvaluator): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      if (!isDocument(arg)) {
        throw new CommandError(51103, `${name} expects an object of named arguments but found: ${bsonTypeOf(arg)}`);
      }
      let input: Evaluator | undefined;
      let regex: Evaluator | undefined;
      let options: Evaluator | undefined;
      let regexArg: unknown;
      let optionsArg: unknown = null;
      for (const key of Object.keys(arg)) {
        if (key === 'input') input = scope.parse(arg[key]);
        else if (key === 'regex') {
          regexArg = arg[key];
          regex = scope.parse(regexArg);
        } else if (key === 'options') {
          optionsArg = arg[key];
          options = scope.parse(optionsArg);
        } else throw new CommandError(31024, `${name} found an unknown argument: ${key}`);
      }
      if (input === undefined) throw new CommandError(31022, `${name} requires 'input' parameter`);
      if (regex === undefined) throw new CommandError(31023, `${name} requires 'regex' parameter`);
      const inputE = input;
      if (isConstant(regexArg) && isConstant(optionsArg)) {
        const compiled = compileRegexArguments(name, constantValue(regexArg), constantValue(optionsArg));
        return (frame) => run(inputOf(name, inputE(frame)), compiled);
      }
      const regexE = regex;
      const optionsE = options;
      const cache: CompileCache = { key: null, compiled: null };
      return (frame: Frame) => {
        const inputV = inputE(frame);
        // The regex and its options are checked and compiled before the input is read.
        const compiled = compileRegexArguments(name, regexE(frame), optionsE === undefined ? null : optionsE(frame), cache);
        return run(inputOf(name, inputV), compiled);
      };
    },
  };
}
