/**
 * Evaluation operators: $regex/$options (and regex values), $mod, and the top-level ones that
 * need an engine Mayfly does not have: $where (answered as a mongod without a script engine),
 * $expr (pluggable), plus $sampleRate,
 * $alwaysTrue/$alwaysFalse.
 */
import { CommandError } from '../../../errors/command_error.js';
import { coerceToLong, isNumber, parseIntegerToLong, toDouble } from '../../values/numeric.js';
import { leaf, ParseLevel, type Clause, type ParseContext, type Predicate } from '../types.js';
import { isRegexValue, regexSource, regexTest } from './comparison.js';

/** `{path: /re/flags}` or a regex inside $all/$not. */
export function parseRegexValue(rhs: unknown): Clause {
  const [pattern, flags] = regexSource(rhs);
  return leaf(regexTest(pattern, flags));
}

/** `{path: {$regex: ..., $options: ...}}`, reading both from the whole operator document. */
export function parseRegexDocument(doc: Record<string, unknown>): Clause {
  let pattern = '';
  let options = '';
  for (const key in doc) {
    const e = doc[key];
    if (key === '$regex') {
      if (typeof e === 'string') {
        pattern = e;
      } else if (isRegexValue(e)) {
        const [p, f] = regexSource(e);
        pattern = p;
        if (f !== '') {
          if (options !== '') throw new CommandError(51074, 'options set in both $regex and $options');
          options = f;
        }
      } else {
        throw new CommandError('BadValue', '$regex has to be a string');
      }
    } else if (key === '$options') {
      if (typeof e !== 'string') throw new CommandError('BadValue', '$options has to be a string');
      if (options !== '') throw new CommandError(51075, 'options set in both $regex and $options');
      options = e;
    }
  }
  return leaf(regexTest(pattern, options));
}

/** The dividend of `$mod` as a 64-bit integer, or null when the value cannot be one. */
function dividendOf(v: unknown): bigint | null {
  if (!isNumber(v)) return null;
  const r = coerceToLong(v);
  return r.ok ? r.value : null;
}

/** `{path: {$mod: [divisor, remainder]}}`. */
export function parseMod(rhs: unknown): Clause {
  if (!Array.isArray(rhs)) throw new CommandError('BadValue', 'malformed mod, needs to be an array');
  if (rhs.length < 1) throw new CommandError('BadValue', 'malformed mod, not enough elements');
  if (!isNumber(rhs[0])) throw new CommandError('BadValue', 'malformed mod, divisor not a number');
  if (rhs.length < 2) throw new CommandError('BadValue', 'malformed mod, not enough elements');
  if (!isNumber(rhs[1])) throw new CommandError('BadValue', 'malformed mod, remainder not a number');
  if (rhs.length > 2) throw new CommandError('BadValue', 'malformed mod, too many elements');
  const d = coerceToLong(rhs[0]);
  if (!d.ok) throw new CommandError('BadValue', `malformed mod, divisor value is invalid :: caused by :: ${d.reason}`);
  const r = coerceToLong(rhs[1]);
  if (!r.ok) {
    throw new CommandError('BadValue', `malformed mod, remainder value is invalid :: caused by :: ${r.reason}`);
  }
  const divisor = d.value;
  const remainder = r.value;
  if (divisor === 0n) throw new CommandError('BadValue', 'divisor cannot be 0');
  const smallDivisor = Number(divisor);
  const smallRemainder = Number(remainder);
  const fast = Number.isSafeInteger(smallDivisor) && Number.isSafeInteger(smallRemainder);
  return leaf((v) => {
    if (fast && typeof v === 'number' && Number.isSafeInteger(v)) {
      return (v % smallDivisor) + 0 === smallRemainder;
    }
    const x = dividendOf(v);
    if (x === null) return false;
    // safeMod: INT64_MIN % -1 is 0 (no overflow).
    return x % divisor === remainder;
  });
}

/** `$where`: Mayfly has no JavaScript engine, so it answers as mongod started with --noscripting. */
export function parseWhere(level: ParseLevel, ctx: ParseContext): never {
  if (!ctx.whereAllowed) throw new CommandError('BadValue', '$where is not allowed in this context');
  if (level === ParseLevel.subDocument) {
    throw new CommandError('BadValue', '$where can only be applied to the top-level document');
  }
  throw new CommandError(6108304, 'no globalScriptEngine in $where parsing');
}

/** `$expr`: compiled by the aggregation engine when one is plugged in. */
export function parseExpr(rhs: unknown, level: ParseLevel, ctx: ParseContext): Predicate {
  if (level === ParseLevel.subDocument) {
    throw new CommandError('BadValue', '$expr can only be applied to the top-level document');
  }
  if (ctx.compileExpr === undefined) {
    throw new CommandError('NotImplemented', '$expr is not supported by Mayfly yet');
  }
  return ctx.compileExpr(rhs);
}

/** `$sampleRate: x`: each document matches with probability x. */
export function parseSampleRate(rhs: unknown, level: ParseLevel, random: () => number): Predicate {
  if (level === ParseLevel.subDocument) {
    throw new CommandError('BadValue', '$sampleRate can only be applied to the top-level document');
  }
  if (!isNumber(rhs)) throw new CommandError('BadValue', 'argument to $sampleRate must be a numeric type');
  const x = toDouble(rhs);
  if (!(x >= 0 && x <= 1)) throw new CommandError('BadValue', 'numeric argument to $sampleRate must be in [0, 1]');
  if (x === 0) return () => false;
  if (x === 1) return () => true;
  return () => random() < x;
}

/** `$alwaysTrue: 1` / `$alwaysFalse: 1`. */
export function parseAlwaysBoolean(name: '$alwaysTrue' | '$alwaysFalse', rhs: unknown): Predicate {
  const parsed = parseIntegerToLong(name, rhs);
  if (!parsed.ok) throw new CommandError('FailedToParse', parsed.reason);
  if (parsed.value !== 1n) throw new CommandError('FailedToParse', `${name} must be an integer value of 1`);
  const value = name === '$alwaysTrue';
  return () => value;
}
